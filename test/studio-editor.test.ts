/**
 * The editor on its dev page (studio/dev) in headless Chromium: select, drag-move, undo, edit a
 * text in place, add a rectangle and reorder layers, checking the document through the page's
 * test hook (window.__editor) and that each committed edit calls onChange exactly once.
 */
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesignDocument, Element } from '../src/engine/browser.ts';
import { type DevServer, startDevServer } from '../studio/dev/serve.ts';
import { launchChromium } from './harness/studio.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);

interface Hook {
  handle: { getDocument(): DesignDocument };
  changes: DesignDocument[];
}

let server: DevServer;
let browser: Browser;
let page: Page;

async function doc(): Promise<{ elements: Element[]; changes: number }> {
  return page.evaluate(() => {
    const hook = (window as unknown as { __editor: Hook }).__editor;
    const d = hook.handle.getDocument();
    const active = d.pages.find((p) => p.id === d.activePageId) ?? d.pages[0];
    return { elements: active?.elements ?? [], changes: hook.changes.length };
  });
}

/** Screen point of a page point, from the canvas box and the page width (1080). */
async function screen(x: number, y: number): Promise<{ x: number; y: number }> {
  const box = await page.locator('canvas[role="img"]').boundingBox();
  if (!box) throw new Error('no canvas');
  const zoom = box.width / 1080;
  return { x: box.x + x * zoom, y: box.y + y * zoom };
}

const byId = (elements: Element[], id: string) => elements.find((el) => el.id === id);

describe.skipIf(!present)('studio editor on its dev page (skipped when /usr/bin/chromium is absent)', () => {
  beforeAll(async () => {
    server = await startDevServer();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(server.url);
    await page.waitForFunction(() => '__editor' in window);
    await page.waitForTimeout(300);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('selects, moves by dragging, and undoes the move', async () => {
    const start = await screen(300, 870);
    await page.mouse.click(start.x, start.y);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Text', exact: true }).inputValue())
      .toContain('Free shipping');
    const before = await doc();
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    const end = await screen(400, 920);
    await page.mouse.move(end.x, end.y, { steps: 10 });
    await page.mouse.up();
    const after = await doc();
    expect(after.changes).toBe(before.changes + 1);
    expect(byId(after.elements, 'body')?.x).toBeGreaterThan(180);
    await page.keyboard.press('Control+z');
    expect(byId((await doc()).elements, 'body')?.x).toBe(110);
  });

  it('edits a text in place', async () => {
    const p = await screen(300, 650);
    await page.mouse.dblclick(p.x, p.y);
    const editor = page.getByLabel('Edit text');
    await expect.poll(() => editor.count()).toBe(1);
    await editor.fill('Hello {{headline}}');
    await page.keyboard.press('Control+Enter');
    expect(byId((await doc()).elements, 'title')).toMatchObject({ type: 'text', text: 'Hello {{headline}}' });
    expect(await editor.count()).toBe(0);
  });

  it('adds a rectangle and reorders it in the layers panel', async () => {
    const before = await doc();
    await page.getByRole('button', { name: 'Add rectangle' }).click();
    const added = await doc();
    expect(added.changes).toBe(before.changes + 1);
    const rect = added.elements.at(-1);
    expect(rect?.type).toBe('rect');
    await page.getByRole('button', { name: `Send Rectangle ${rect?.id} backward` }).click();
    const reordered = await doc();
    expect(reordered.elements.findIndex((el) => el.id === rect?.id)).toBe(added.elements.length - 2);
    expect(reordered.changes).toBe(added.changes + 1);
  });

  it('rotates a multiple selection as one piece with the group knob', async () => {
    const canvas = await screen(540, 540);
    await page.mouse.click(canvas.x, canvas.y);
    await page.keyboard.press('Control+a');
    const before = await doc();
    const knob = page.locator('circle[data-rotate]');
    await expect.poll(() => knob.count()).toBe(1);
    const box = await knob.boundingBox();
    if (!box) throw new Error('no rotate knob');
    const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const centre = await page.locator('rect.pe-group').boundingBox();
    if (!centre) throw new Error('no group box');
    // A quarter turn clockwise: from above the centre to its right, shift snapping to 15°.
    const pivot = { x: centre.x + centre.width / 2, y: centre.y + centre.height / 2 };
    const to = { x: pivot.x + (pivot.y - from.y), y: pivot.y };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.keyboard.down('Shift');
    await page.mouse.move(to.x, to.y, { steps: 12 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    const after = await doc();
    expect(after.changes).toBe(before.changes + 1);
    for (const el of before.elements) {
      const turned = byId(after.elements, el.id);
      if (el.locked) continue;
      const delta = (((turned?.rotation ?? 0) - el.rotation + 540) % 360) - 180;
      expect([el.id, delta]).toEqual([el.id, 90]);
    }
    await page.keyboard.press('Control+z');
    expect((await doc()).elements.map((el) => el.rotation)).toEqual(before.elements.map((el) => el.rotation));
  });
});
