/**
 * Helpers for the studio's browser suites: the bundle built once, Debian's Chromium through
 * playwright-core (null when absent, so suites skip with a reason), a customer host page on a
 * different origin that loads /embed.js, and opening the studio in it with a minted token.
 * Events the loader hands to `onEvent` are collected in the page as `window.platenEvents`.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { buildStudio, DEFAULT_DIST_DIR } from '../../src/studio/build.ts';
import { CHROMIUM_PATH, chromiumMissing, launchChromium } from './chromium.ts';
import { createEmbed, mint } from './embeds.ts';

export { CHROMIUM_PATH, chromiumMissing, launchChromium };

import { freePort, type TestServer, workspaceWithKey } from './server.ts';

export async function ensureStudioBuilt(): Promise<void> {
  if (!['index.html', 'console.html', 'embed.js'].every((file) => existsSync(join(DEFAULT_DIST_DIR, file))))
    await buildStudio(DEFAULT_DIST_DIR);
}

export interface HostPage {
  /** The host page's URL, on `localhost` (another site than the service's 127.0.0.1). */
  url: string;
  close(): Promise<void>;
}

/** A customer's page: loads `{serviceBase}/embed.js` and exposes `openStudio(options)` to tests. */
export async function startHostPage(serviceBase: string): Promise<HostPage> {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Customer app</title><link rel="icon" href="data:,">
<style>html,body{margin:0;height:100%}#studio{height:100vh}</style>
<script src="${serviceBase}/embed.js"></script></head>
<body><main><h1 style="position:absolute;left:-9999px">Customer app</h1><div id="studio"></div></main>
<script>
  window.platenEvents = [];
  window.openStudio = function (options) {
    window.studio = Platen.open(Object.assign({ container: '#studio' }, options, {
      onEvent: function (event) { window.platenEvents.push(event); }
    }));
  };
</script></body></html>`;
  const server: Server = createServer((request, response) => {
    if (request.url === '/' || request.url?.startsWith('/?')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface StudioSession {
  workspaceId: string;
  embedId: string;
  userId: string;
  token: string;
}

/** A workspace, an embed with `settings`, and a freshly minted session for `userId`. */
export async function mintStudioSession(
  server: TestServer,
  settings: object = {},
  userId = 'user-1',
): Promise<StudioSession> {
  const { workspaceId } = await workspaceWithKey(server.base);
  const embed = await createEmbed(server.base, workspaceId, settings);
  return { workspaceId, embedId: embed.id, userId, token: await mint(server.base, embed.id, userId) };
}

export interface OpenedStudio {
  frame: Frame;
}

/** Opens the host page, calls `Platen.open` and waits for the studio's `ready` event. */
export async function openStudio(
  page: Page,
  host: HostPage,
  options: { embedId: string; token: string; templateId?: string },
): Promise<OpenedStudio> {
  await page.goto(host.url);
  await page.evaluate(
    (opts) => (window as unknown as { openStudio(o: object): void }).openStudio(opts),
    options,
  );
  await waitForEvent(page, 'ready');
  const frame = page.frames().find((f) => f.url().includes(`/studio/${options.embedId}`));
  if (!frame) throw new Error('the studio frame is missing');
  return { frame };
}

export interface HostEvent {
  type: string;
  [key: string]: unknown;
}

/** The first event of `type` (after `skip` earlier ones) the host page received. */
export async function waitForEvent(page: Page, type: string, skip = 0, timeout = 20_000): Promise<HostEvent> {
  const handle = await page.waitForFunction(
    ([wanted, n]) => {
      const events = (window as unknown as { platenEvents: { type: string }[] }).platenEvents ?? [];
      return events.filter((e) => e.type === wanted)[n as number] ?? null;
    },
    [type, skip] as const,
    { timeout },
  );
  return (await handle.jsonValue()) as HostEvent;
}

export function hostEvents(page: Page): Promise<HostEvent[]> {
  return page.evaluate(() => (window as unknown as { platenEvents: HostEvent[] }).platenEvents);
}
