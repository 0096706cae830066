/**
 * The editor on its dev page (studio/dev) in headless Chromium: select, drag-move, undo, edit a
 * text in place, add a rectangle and reorder layers, checking the document through the page's
 * test hook (window.__editor) and that each committed edit calls onChange exactly once. Then the
 * version 2 editing: bold, colour and a link on a selection of a text edited in place; group and
 * ungroup with the keyboard (nothing moves), entering a group and leaving it; a gradient fill with
 * an added stop; effects; a barcode from the toolbar.
 */
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesignDocument, Element, GroupElement } from '../src/engine/browser.ts';
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

  it('styles a selection of a text edited in place: bold, colour, size and a link, one undo step', async () => {
    const p = await screen(300, 880);
    await page.mouse.dblclick(p.x, p.y);
    const editor = page.getByRole('textbox', { name: 'Edit text' });
    await expect.poll(() => editor.count()).toBe(1);
    const before = await doc();
    // Select "Free" (the first four characters) with the keyboard, then Ctrl+B.
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Control+b');
    // The toolbar follows the selection on the browser's selectionchange, which comes after the key
    // press returns: waited for, not read at once (a loaded machine showed the old state).
    const bold = page.getByRole('button', { name: 'Bold', exact: true });
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('true');
    // Colour the selection from the text toolbar.
    await page.getByLabel('Colour of the selected text').evaluate((input: HTMLInputElement) => {
      input.value = '#e11d48';
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    // And its size, typed in the toolbar's size field.
    const size = page.getByLabel('Font size of the selected text');
    await size.fill('48');
    await size.press('Enter');
    // Ctrl+K asks for the link address; Enter applies it to the same selection.
    await editor.focus();
    await page.keyboard.press('Control+k');
    const address = page.getByRole('textbox', { name: 'Link address (https or mailto)' });
    await address.fill('https://example.com/shipping');
    await address.press('Enter');
    // Typing at the end keeps the style where the caret is; Ctrl+Enter commits.
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Now.');
    await page.keyboard.press('Control+Enter');
    const body = byId((await doc()).elements, 'body');
    expect(body).toMatchObject({
      text: '',
      spans: [
        {
          text: 'Free',
          fontWeight: 700,
          color: '#e11d48',
          fontSize: 48,
          link: 'https://example.com/shipping',
        },
        { text: ' shipping on every order.\nGifts for the first hundred customers. Now.' },
      ],
    });
    expect((await doc()).changes).toBe(before.changes + 1);
    await page.keyboard.press('Control+z');
    expect(byId((await doc()).elements, 'body')).toMatchObject({
      text: 'Free shipping on every order.\nGifts for the first hundred customers.',
    });
  });

  it('groups with Ctrl+G and ungroups with Ctrl+Shift+G without moving anything, selecting inside', async () => {
    await page.getByRole('tab', { name: 'Layers' }).click();
    await page.getByRole('button', { name: /^Select Ellipse/ }).click();
    await page.getByRole('button', { name: /^Select QR code/ }).click({ modifiers: ['Shift'] });
    const before = await doc();
    await page.locator('.pe-viewport').focus();
    await page.keyboard.press('Control+g');
    const grouped = await doc();
    expect(grouped.changes).toBe(before.changes + 1);
    const group = grouped.elements.find((el) => el.type === 'group') as GroupElement | undefined;
    if (!group) throw new Error('no group');
    expect(group.elements.map((el) => el.id)).toEqual(['badge', 'code']);
    for (const child of group.elements) {
      const was = byId(before.elements, child.id);
      expect(child.x + group.x).toBeCloseTo(was?.x ?? Number.NaN, 1);
      expect(child.y + group.y).toBeCloseTo(was?.y ?? Number.NaN, 1);
    }
    // The layers panel shows the tree: the children are listed inside the group.
    await expect.poll(() => page.getByRole('list', { name: /^Inside Group/ }).count()).toBe(1);
    // Double-click enters the group, selecting the child under the pointer; Escape leaves it.
    const qr = await screen(900, 910);
    await page.mouse.dblclick(qr.x, qr.y);
    await expect.poll(() => page.locator('rect.pe-scope').count()).toBe(1);
    await expect.poll(() => page.getByRole('textbox', { name: 'QR value' }).count()).toBe(1);
    await page.locator('.pe-viewport').focus();
    await page.keyboard.press('ArrowRight');
    const nudged = await doc();
    const inside = (nudged.elements.find((el) => el.id === group.id) as GroupElement).elements;
    expect(byId(inside, 'code')?.x).toBe((byId(group.elements, 'code')?.x ?? 0) + 1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('rect.pe-scope').count()).toBe(0);
    await expect
      .poll(() => page.getByRole('checkbox', { name: 'Clip contents to the group box' }).count())
      .toBe(1);
    // Inside a rotated group the pointer still picks what is drawn under it.
    await page.getByRole('spinbutton', { name: 'Rotation (°)' }).fill('180');
    await page.getByRole('spinbutton', { name: 'Rotation (°)' }).press('Enter');
    const turned = (await doc()).elements.find((el) => el.id === group.id) as GroupElement;
    const qrLocal = byId(turned.elements, 'code');
    if (!qrLocal) throw new Error('no code');
    // The QR code's centre turned half a turn about the group's centre.
    const gc = { x: turned.x + turned.width / 2, y: turned.y + turned.height / 2 };
    const local = {
      x: turned.x + qrLocal.x + qrLocal.width / 2,
      y: turned.y + qrLocal.y + qrLocal.height / 2,
    };
    const drawn = await screen(2 * gc.x - local.x, 2 * gc.y - local.y);
    await page.mouse.dblclick(drawn.x, drawn.y);
    await expect.poll(() => page.getByRole('textbox', { name: 'QR value' }).count()).toBe(1);
    await page.locator('.pe-viewport').focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+z');
    await expect
      .poll(async () => ((await doc()).elements.find((el) => el.id === group.id) as GroupElement).rotation)
      .toBe(0);
    await page.keyboard.press('Control+Shift+g');
    const ungrouped = await doc();
    expect(ungrouped.elements.some((el) => el.type === 'group')).toBe(false);
    expect(byId(ungrouped.elements, 'badge')).toMatchObject({ x: 800, y: 420, rotation: -12 });
    expect(byId(ungrouped.elements, 'code')?.x).toBeCloseTo(831, 1);
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    expect((await doc()).elements.map((el) => el.id)).toEqual(before.elements.map((el) => el.id));
  });

  it('switches a fill to a linear gradient, adds a stop, and turns on a shadow and a flip', async () => {
    await page.getByRole('button', { name: /^Select Rectangle .*card$/ }).click();
    await page.getByRole('combobox', { name: 'Fill type' }).selectOption('linear');
    await expect
      .poll(async () => byId((await doc()).elements, 'card'))
      .toMatchObject({ fill: { type: 'linear' } });
    await page.getByRole('button', { name: 'Add stop to Fill' }).click();
    const card = byId((await doc()).elements, 'card');
    expect(card?.type === 'rect' && typeof card.fill !== 'string' && card.fill.stops.length).toBe(3);
    await page.getByRole('checkbox', { name: 'Drop shadow' }).check();
    await page.getByRole('checkbox', { name: 'Flip horizontally' }).check();
    expect(byId((await doc()).elements, 'card')).toMatchObject({ shadow: { blur: 12 }, flipX: true });
    await page.getByRole('spinbutton', { name: 'Shadow blur' }).fill('30');
    await page.getByRole('spinbutton', { name: 'Shadow blur' }).press('Enter');
    expect(byId((await doc()).elements, 'card')).toMatchObject({ shadow: { blur: 30 } });
  });

  it('adds a barcode from the toolbar and edits its format and value', async () => {
    await page.getByRole('button', { name: 'Add barcode' }).click();
    const added = (await doc()).elements.at(-1);
    expect(added).toMatchObject({ type: 'barcode', format: 'code128' });
    await page.getByRole('combobox', { name: 'Barcode format' }).selectOption('ean13');
    await page.getByRole('textbox', { name: 'Barcode value' }).fill('400638133393');
    await page.getByRole('textbox', { name: 'Barcode value' }).press('Enter');
    expect((await doc()).elements.at(-1)).toMatchObject({ format: 'ean13', value: '400638133393' });
    // A wrong check digit is refused with the encoder's reason; the stored value stays.
    await page.getByRole('textbox', { name: 'Barcode value' }).fill('4006381333932');
    await page.getByRole('textbox', { name: 'Barcode value' }).press('Enter');
    await expect.poll(() => page.locator('.pe-problem').textContent()).toMatch(/check digit/i);
    expect((await doc()).elements.at(-1)).toMatchObject({ value: '400638133393' });
  });

  it('crops an image by dragging and with the arrow keys, and sets a filter', async () => {
    await page.getByRole('button', { name: /^Select Image photo$/ }).click();
    await page.getByRole('checkbox', { name: 'Crop' }).check();
    expect(byId((await doc()).elements, 'photo')).toMatchObject({
      crop: { x: 0.1, y: 0.1, width: 0.8, height: 0.8 },
    });
    const area = page.getByRole('button', { name: /^Crop area/ });
    await area.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    expect(byId((await doc()).elements, 'photo')).toMatchObject({
      crop: { x: 0.11, y: 0.1, width: 0.8, height: 0.81 },
    });
    // Drag the crop's top-left corner 22 pixels (a tenth of the 220-pixel picture) to the left.
    const handle = await page.locator('.pe-crop-handle.is-nw').boundingBox();
    if (!handle) throw new Error('no crop handle');
    const before = (await doc()).changes;
    await page.mouse.move(handle.x + 5, handle.y + 5);
    await page.mouse.down();
    await page.mouse.move(handle.x + 5 - 22, handle.y + 5, { steps: 5 });
    await page.mouse.up();
    const cropped = byId((await doc()).elements, 'photo');
    expect(cropped?.type === 'image' && cropped.crop?.x).toBeCloseTo(0.01, 2);
    expect(cropped?.type === 'image' && cropped.crop?.width).toBeCloseTo(0.9, 2);
    expect((await doc()).changes).toBe(before + 1);
    await page.getByRole('spinbutton', { name: 'Grayscale (%)' }).fill('100');
    await page.getByRole('spinbutton', { name: 'Grayscale (%)' }).press('Enter');
    expect(byId((await doc()).elements, 'photo')).toMatchObject({ filters: { grayscale: 1 } });
  });
});
