/**
 * End to end through /embed.js on a customer page (another origin) against the real server: create
 * a design, edit a text and move it, wait for `saved`, reload and reopen it by templateId; download
 * a PNG; each embed toggle hides its controls; an invalid token yields `token-expired`, and the
 * edit made meanwhile is saved once `setToken` hands over a fresh one.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, mint, patchEmbed } from './harness/embeds.ts';
import { startTestServer, type TestServer } from './harness/server.ts';
import {
  chromiumMissing,
  ensureStudioBuilt,
  type HostPage,
  hostEvents,
  launchChromium,
  mintStudioSession,
  openStudio,
  type StudioSession,
  startHostPage,
  waitForEvent,
} from './harness/studio.ts';

if (chromiumMissing) console.log(`studio e2e test skipped: ${chromiumMissing}`);

/**
 * How long a poll waits for an edit to reach the server. Adding a text is two edits (the new
 * element, then its words), so the first 'saved' may carry the first only, and the second follows
 * one autosave pause (800 ms) plus a save later: longer than a poll's default second on a loaded
 * CI machine.
 */
const SETTLES = { timeout: 15_000 };

interface TextEl {
  id: string;
  type: string;
  text?: string;
  x: number;
  y: number;
}

describe.skipIf(chromiumMissing !== null)('studio end to end (Chromium)', () => {
  let server: TestServer;
  let host: HostPage;
  let browser: Browser;
  let page: Page;
  let session: StudioSession;
  let templateId = '';

  beforeAll(async () => {
    await ensureStudioBuilt();
    server = await startTestServer();
    host = await startHostPage(server.base);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    session = await mintStudioSession(server);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  async function elements(tid = templateId, token = session.token): Promise<TextEl[]> {
    const res = await asSession(server.base, token)('GET', `/v1/embed/${session.embedId}/templates/${tid}`);
    expect(res.status).toBe(200);
    const doc = res.json.document as { activePageId: string; pages: { id: string; elements: TextEl[] }[] };
    const active = doc.pages.find((p) => p.id === doc.activePageId) ?? doc.pages[0];
    return active?.elements ?? [];
  }

  async function addText(frame: Frame, text: string): Promise<void> {
    await frame.getByRole('button', { name: 'Add text' }).click();
    const field = frame.getByRole('textbox', { name: 'Text', exact: true });
    await field.fill(text);
    await field.blur();
  }

  it('creates a design, edits a text, moves it, saves, and shows it after a reload', async () => {
    const { frame } = await openStudio(page, host, { embedId: session.embedId, token: session.token });
    await frame.getByRole('button', { name: /New Instagram post/ }).click();
    await frame.getByRole('textbox', { name: 'Design name' }).waitFor();

    await addText(frame, 'Hello from e2e');
    const saved = await waitForEvent(page, 'saved');
    templateId = String(saved.templateId);
    let added: TextEl | undefined;
    await expect
      .poll(async () => {
        added = (await elements()).find((el) => el.type === 'text' && el.text === 'Hello from e2e');
        return added !== undefined;
      }, SETTLES)
      .toBe(true);
    const x0 = added?.x ?? 0;

    // Move with the keyboard: the selection is still the new text.
    await frame.getByRole('application').focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect
      .poll(async () => (await elements()).find((el) => el.id === added?.id)?.x, SETTLES)
      .toBe(x0 + 5);
    // The server stores the move before the studio hears its answer and tells the host, so the
    // second 'saved' event may arrive a moment after the stored position changes.
    await expect
      .poll(async () => (await hostEvents(page)).filter((e) => e.type === 'saved').length, SETTLES)
      .toBeGreaterThanOrEqual(2);

    // Reload the host page and open the same template by id: the change is there.
    const reopened = await openStudio(page, host, {
      embedId: session.embedId,
      token: session.token,
      templateId,
    });
    await reopened.frame.getByRole('textbox', { name: 'Design name' }).waitFor();
    const canvas = reopened.frame.getByRole('img', { name: /^Page / });
    await expect.poll(() => canvas.getAttribute('aria-label')).toMatch(/, \d+ elements$/);
    // The layers panel lists the moved text; selecting it shows its text and position.
    await reopened.frame.getByRole('button', { name: 'Select Text Hello from e2e' }).click();
    await expect
      .poll(() => reopened.frame.getByRole('textbox', { name: 'Text', exact: true }).inputValue())
      .toBe('Hello from e2e');
    expect(await reopened.frame.getByRole('spinbutton', { name: 'X', exact: true }).inputValue()).toBe(
      String(x0 + 5),
    );
    const stored = (await elements()).find((el) => el.id === added?.id);
    expect(stored).toMatchObject({ text: 'Hello from e2e', x: x0 + 5 });
    const label = (await canvas.getAttribute('aria-label')) ?? '';
    expect(Number(/(\d+) elements$/.exec(label)?.[1])).toBe((await elements()).length);
  });

  it('downloads a PNG and reports one credit charged', async () => {
    const { frame } = await openStudio(page, host, {
      embedId: session.embedId,
      token: session.token,
      templateId,
    });
    await frame.getByRole('button', { name: 'Download' }).click();
    const downloading = page.waitForEvent('download', { timeout: 30_000 });
    await frame.getByRole('menuitem', { name: /PNG/ }).click();
    const rendered = await waitForEvent(page, 'rendered', 0, 30_000);
    const result = rendered.result as { format?: string; credits: { charged: number }; url: string | null };
    expect(result.credits.charged).toBe(1);
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.png$/);
    await expect.poll(() => frame.getByText(/1 credit charged/).count()).toBe(1);
  });

  it('hides the controls of each disabled toggle', async () => {
    // All on: Download, the asset picker behind "Add image", and the Resize tab.
    let { frame } = await openStudio(page, host, {
      embedId: session.embedId,
      token: session.token,
      templateId,
    });
    await frame.getByRole('button', { name: 'Download' }).waitFor();
    expect(await frame.getByRole('tab', { name: 'Resize' }).count()).toBe(1);
    await frame.getByRole('button', { name: 'Add image' }).click();
    await frame.getByRole('dialog', { name: 'Choose an image' }).waitFor();
    expect(await frame.getByText('Upload an image').count()).toBe(1);
    await frame.getByRole('button', { name: 'Close the image picker' }).click();

    await patchEmbed(server.base, session.embedId, {
      downloadsEnabled: false,
      assetPickerEnabled: false,
      smartResizeEnabled: false,
    });
    const token = await mint(server.base, session.embedId, session.userId);
    ({ frame } = await openStudio(page, host, { embedId: session.embedId, token, templateId }));
    await frame.getByRole('textbox', { name: 'Design name' }).waitFor();
    await frame.getByRole('button', { name: 'Add text' }).waitFor();
    expect(await frame.getByRole('button', { name: 'Download' }).count()).toBe(0);
    expect(await frame.getByRole('tab', { name: 'Resize' }).count()).toBe(0);
    await frame.getByRole('button', { name: 'Add image' }).click();
    await frame.getByRole('dialog', { name: 'Add an image by URL' }).waitFor();
    await frame.getByRole('textbox', { name: 'Image URL' }).waitFor();
    expect(await frame.getByRole('dialog', { name: 'Choose an image' }).count()).toBe(0);
    expect(await frame.getByText('Upload an image').count()).toBe(0);
    expect(await frame.locator('input[type="file"]').count()).toBe(0);

    await patchEmbed(server.base, session.embedId, {
      downloadsEnabled: true,
      assetPickerEnabled: true,
      smartResizeEnabled: true,
    });
  });

  it('reports token-expired on a refused token and loses no edit after setToken', async () => {
    const { frame } = await openStudio(page, host, {
      embedId: session.embedId,
      token: session.token,
      templateId,
    });
    await frame.getByRole('button', { name: 'Add text' }).waitFor();
    await page.evaluate(() =>
      (window as unknown as { studio: { setToken(t: string): void } }).studio.setToken('not-a-valid-token'),
    );
    const savedBefore = (await hostEvents(page)).filter((e) => e.type === 'saved').length;
    await addText(frame, 'Written while expired');
    await waitForEvent(page, 'token-expired');
    expect((await elements()).some((el) => el.text === 'Written while expired')).toBe(false);

    const fresh = await mint(server.base, session.embedId, session.userId);
    await page.evaluate(
      (t) => (window as unknown as { studio: { setToken(t: string): void } }).studio.setToken(t),
      fresh,
    );
    await waitForEvent(page, 'saved', savedBefore);
    await expect
      .poll(async () => (await elements()).some((el) => el.text === 'Written while expired'), SETTLES)
      .toBe(true);
    expect((await elements()).some((el) => el.text === 'Hello from e2e')).toBe(true);
  });
});
