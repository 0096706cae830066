/**
 * Accessibility of the embedded studio: axe-core, injected into the studio's frame, finds no
 * serious or critical violations on the browser screen and on the editor screen. Every violation
 * found (of any impact) is printed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness/server.ts';
import {
  chromiumMissing,
  ensureStudioBuilt,
  type HostPage,
  launchChromium,
  mintStudioSession,
  openStudio,
  startHostPage,
} from './harness/studio.ts';

if (chromiumMissing) console.log(`studio accessibility test skipped: ${chromiumMissing}`);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

async function audit(frame: Frame, screen: string): Promise<Violation[]> {
  await frame.evaluate(axeSource);
  const violations = (await frame.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: unknown[] }> } })
      .axe;
    return (await axe.run(document)).violations;
  })) as Violation[];
  for (const v of violations)
    console.info(
      `[axe ${screen}] ${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes.map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n'),
    );
  if (violations.length === 0) console.info(`[axe ${screen}] no violations`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe.skipIf(chromiumMissing !== null)('studio accessibility (Chromium, axe-core)', () => {
  let server: TestServer;
  let host: HostPage;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await ensureStudioBuilt();
    server = await startTestServer();
    host = await startHostPage(server.base);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  it('has no serious or critical violations on the browser and editor screens', async () => {
    const session = await mintStudioSession(server, { brandTitle: 'Acme Studio' });
    const { frame } = await openStudio(page, host, { embedId: session.embedId, token: session.token });
    await frame.getByRole('heading', { name: 'New design' }).waitFor();
    const onBrowser = await audit(frame, 'browser');

    await frame.getByRole('button', { name: /New Instagram post/ }).click();
    await frame.getByRole('textbox', { name: 'Design name' }).waitFor();
    await frame.getByRole('button', { name: 'Add text' }).click();
    await frame.getByRole('textbox', { name: 'Text', exact: true }).waitFor();
    await page.waitForTimeout(500);
    const onEditor = await audit(frame, 'editor');

    expect({
      browser: onBrowser.map((v) => `${v.impact} ${v.id}`),
      editor: onEditor.map((v) => `${v.impact} ${v.id}`),
    }).toEqual({ browser: [], editor: [] });
  });
});
