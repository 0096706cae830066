/**
 * What a person types in a properties field survives a re-render before they leave the field. The
 * workspace's font list is held back until the typing is done, then let through: the text panel
 * re-renders with the uploaded family in its font list while the typed value is still uncommitted.
 * Before fields kept a draft, that re-render put the document's value back into the field, the blur
 * then saw no change, and the edit was silently lost (a CI run of the history e2e test caught it).
 * The timeline's page duration is typed while playback redraws the transport on every frame.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { asSession, createEmbed, mint } from './harness/embeds.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';
import {
  chromiumMissing,
  ensureStudioBuilt,
  type HostPage,
  launchChromium,
  openStudio,
  startHostPage,
  waitForEvent,
} from './harness/studio.ts';

if (chromiumMissing) console.log(`studio typing e2e test skipped: ${chromiumMissing}`);

const require = createRequire(import.meta.url);
const SERIF = readFileSync(
  join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSerif.ttf'),
);

describe.skipIf(chromiumMissing !== null)('typing in the studio through a re-render (Chromium)', () => {
  let server: TestServer;
  let host: HostPage;
  let browser: Browser;
  let page: Page;
  let embedId = '';
  let token = '';

  beforeAll(async () => {
    await ensureStudioBuilt();
    server = await startTestServer();
    host = await startHostPage(server.base);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const ws = await workspaceWithKey(server.base);
    const upload = await http(server.base, 'POST', '/v1/assets?family=Brand%20Serif', {
      raw: SERIF,
      headers: { ...bearer(ws.key), 'content-type': 'font/ttf' },
    });
    expect(upload.status).toBe(201);
    embedId = (await createEmbed(server.base, ws.workspaceId)).id;
    token = await mint(server.base, embedId, 'typing-user');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  /** A new template of the session's user, by id. */
  async function newTemplate(name: string, document: object): Promise<string> {
    const created = await asSession(server.base, token)('POST', `/v1/embed/${embedId}/templates`, {
      body: { name, document },
    });
    expect(created.status).toBe(201);
    return created.json.id as string;
  }

  /** The stored draft's first page, as the server has it. */
  async function storedPage(templateId: string) {
    const res = await asSession(server.base, token)('GET', `/v1/embed/${embedId}/templates/${templateId}`);
    expect(res.status).toBe(200);
    return res.json.document.pages[0] as { durationMs?: number; elements: Record<string, unknown>[] };
  }

  const SAVED = { timeout: 15_000 };

  it('keeps a page duration typed while the timeline plays, which redraws it every frame', async () => {
    // A minute long, so playback goes on however slowly the machine types.
    const templateId = await newTemplate('Typing while playing', longPage());
    const { frame } = await openStudio(page, host, { embedId, token, templateId });
    await frame.getByRole('button', { name: 'Play' }).click();
    const field = frame.getByRole('spinbutton', { name: 'Page duration (s)' });
    await field.fill('7');
    // The transport has redrawn since the typing: the time shown moved on.
    const time = frame.getByLabel('Time', { exact: true });
    const shown = await time.innerText();
    await expect.poll(() => time.innerText(), SAVED).not.toBe(shown);
    expect(await field.inputValue()).toBe('7');
    await field.blur();
    await waitForEvent(page, 'saved');
    await expect.poll(async () => (await storedPage(templateId)).durationMs, SAVED).toBe(7000);
  }, 120_000);

  it('commits what was typed to the element it was typed for when another is pressed on the page', async () => {
    const templateId = await newTemplate('Typing, then another element', simpleDocument('One'));
    const { frame } = await openStudio(page, host, { embedId, token, templateId });
    await frame.getByRole('button', { name: /^Select Text/ }).click();
    await frame.getByRole('spinbutton', { name: 'X', exact: true }).fill('123');
    // Pressing on the page selects on pointerdown, before the field loses the focus: the panel is
    // redrawn for the card while the typed X is uncommitted.
    const canvas = frame.getByRole('img', { name: /^Page / });
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the page canvas has no box');
    const zoom = box.width / 400;
    // Inside the card (20-380 × 20-280), below the text (y 40-140).
    await page.mouse.click(box.x + 200 * zoom, box.y + 220 * zoom);
    await expect
      .poll(() => frame.getByRole('spinbutton', { name: 'Width', exact: true }).inputValue())
      .toBe('360');
    await waitForEvent(page, 'saved');
    await expect
      .poll(async () => (await storedPage(templateId)).elements.map((el) => el.x), SAVED)
      .toEqual([20, 123]);
  }, 120_000);

  function longPage() {
    const document = simpleDocument('One');
    return { ...document, pages: document.pages.map((p) => ({ ...p, durationMs: 60_000 })) };
  }

  const cases = [
    { field: 'Text', role: 'textbox', typed: 'Typed while the fonts load', stored: 'text', away: false },
    // A blur without a change first, as when the window loses the focus: the draft stays.
    { field: 'Font size', role: 'spinbutton', typed: '61', stored: 'fontSize', away: true },
  ] as const;

  for (const { field, role, typed, stored, away } of cases) {
    it(`keeps what was typed in "${field}" when the panel re-renders before the blur`, async () => {
      const templateId = await newTemplate(`Typing ${field}`, simpleDocument('One'));

      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const hold = async (route: Route) => {
        await held;
        await route.continue();
      };
      await page.route(`**/v1/embed/${embedId}/fonts`, hold);
      try {
        const { frame } = await openStudio(page, host, { embedId, token, templateId });
        await frame.getByRole('button', { name: /^Select Text/ }).click();
        const input = frame.getByRole(role, { name: field, exact: true });
        await input.fill(typed);
        if (away) await input.dispatchEvent('blur');

        // The font list arrives while the typed value is uncommitted: the panel re-renders with it.
        release();
        await frame
          .getByRole('combobox', { name: 'Font family' })
          .locator('option', { hasText: 'Brand Serif' })
          .waitFor({ state: 'attached' });
        expect(await input.inputValue()).toBe(typed);

        await input.blur();
        await waitForEvent(page, 'saved');
        const expected = stored === 'fontSize' ? Number(typed) : typed;
        await expect
          .poll(async () => (await storedPage(templateId)).elements[1]?.[stored], SAVED)
          .toBe(expected);
      } finally {
        release();
        await page.unroute(`**/v1/embed/${embedId}/fonts`, hold);
      }
    }, 120_000);
  }
});
