/**
 * Debian's Chromium as the browser tests and the benchmarks launch it. Its own module, importing
 * nothing of the service, so a benchmark of the renderer does not load every other module.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const chromiumMissing = existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} is not installed`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
