/**
 * First browser smoke test of the embedded studio against the real server: a customer page on
 * another origin loads /embed.js, opens the studio with a freshly minted token, gets `ready`,
 * creates a design from a preset and finds it listed. The token never appears in a request URL.
 * With PLATEN_SCREENSHOTS=1 it also writes docs/screenshots/studio-{browser,editor}.png.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness/server.ts';
import {
  chromiumMissing,
  ensureStudioBuilt,
  type HostPage,
  hostEvents,
  launchChromium,
  mintStudioSession,
  openStudio,
  startHostPage,
  waitForEvent,
} from './harness/studio.ts';

const screenshots = process.env.PLATEN_SCREENSHOTS === '1';
if (chromiumMissing) console.log(`studio smoke test skipped: ${chromiumMissing}`);

describe.skipIf(chromiumMissing !== null)('studio smoke (Chromium)', () => {
  let server: TestServer;
  let host: HostPage;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];

  beforeAll(async () => {
    await ensureStudioBuilt();
    server = await startTestServer();
    host = await startHostPage(server.base);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.on('request', (request) => requested.push(request.url()));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  it('opens through /embed.js, creates a design from a preset and lists it', async () => {
    const session = await mintStudioSession(server, {
      brandTitle: 'Acme Studio',
      brandAccentColor: '#0f766e',
    });
    const { frame } = await openStudio(page, host, { embedId: session.embedId, token: session.token });

    await frame.getByRole('heading', { name: 'New design' }).waitFor();
    expect(await frame.getByText('Acme Studio').first().isVisible()).toBe(true);
    if (screenshots) {
      mkdirSync('docs/screenshots', { recursive: true });
      await page.screenshot({ path: 'docs/screenshots/studio-browser.png' });
    }

    await frame.getByRole('button', { name: /New Instagram post/ }).click();
    const name = frame.getByRole('textbox', { name: 'Design name' });
    await name.waitFor();
    await expect.poll(() => name.inputValue()).toBe('Instagram post design');
    await frame.getByRole('button', { name: 'Download' }).waitFor();
    if (screenshots) {
      await page.waitForTimeout(1500);
      await page.screenshot({ path: 'docs/screenshots/studio-editor.png' });
    }

    await frame.getByRole('button', { name: 'Back to all designs' }).click();
    await frame.getByRole('button', { name: 'Open Instagram post design' }).waitFor();

    const types = (await hostEvents(page)).map((event) => event.type);
    expect(types.filter((type) => type === 'ready')).toHaveLength(1);
    expect(types).not.toContain('error');
    // The token travels by postMessage and in Authorization headers only.
    expect(requested.length).toBeGreaterThan(3);
    for (const url of requested) expect(url).not.toContain(session.token);
    // And every request went to the host page or the service: no CDN, no font service.
    const origins = new Set(requested.map((url) => new URL(url).origin));
    expect([...origins].sort()).toEqual([new URL(host.url).origin, server.base].sort());
  });

  it('emits closed and removes the frame on close()', async () => {
    await page.evaluate(() => (window as unknown as { studio: { close(): void } }).studio.close());
    await waitForEvent(page, 'closed');
    expect(await page.locator('iframe').count()).toBe(0);
  });
});
