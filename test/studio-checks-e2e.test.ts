/**
 * The studio's live warnings (docs/preflight.md) in Debian's Chromium, through /embed.js on a
 * customer page against the real server: a design whose headline overflows and uses a script no
 * font covers opens with the checks button saying so, the element marked in the layers panel and
 * outlined on the page; the list selects it; fixing the text (autosaved) clears the checks.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { seriousViolations } from './harness/axe.ts';
import { asSession } from './harness/embeds.ts';
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

if (chromiumMissing) console.log(`studio checks e2e test skipped: ${chromiumMissing}`);

const OVERFLOWING = 'A headline far too long for the little box it has to live in, so it spills out ᎣᏏᏲ';

describe.skipIf(chromiumMissing !== null)('the studio checks (Chromium)', () => {
  let server: TestServer;
  let host: HostPage;
  let browser: Browser;
  let page: Page;
  let frame: Frame;

  beforeAll(async () => {
    await ensureStudioBuilt();
    server = await startTestServer('sqlite', { PLATEN_RENDER_RATE_LIMIT: '0' });
    host = await startHostPage(server.base);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const session = await mintStudioSession(server);
    const created = await asSession(server.base, session.token)(
      'POST',
      `/v1/embed/${session.embedId}/templates`,
      {
        body: { name: 'Checked card', document: simpleDocument(OVERFLOWING) },
      },
    );
    ({ frame } = await openStudio(page, host, {
      embedId: session.embedId,
      token: session.token,
      templateId: created.json.id,
    }));
    await frame.getByRole('textbox', { name: 'Design name' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  it('shows what a render would get wrong, on the element and in a list', async () => {
    const button = frame.getByRole('button', { name: 'Checks: 2 errors' });
    await button.waitFor({ timeout: 30_000 });
    const mark = frame.getByRole('img', { name: /^error: .*overflows.*No available font has Cherokee/ });
    await mark.waitFor();
    expect(await frame.locator('.pe-overlay .pe-finding.is-error').count()).toBe(1);
    await page.screenshot({ path: 'test/.tmp/studio-checks-marked.png' });

    await button.click();
    const dialog = frame.getByRole('dialog', { name: 'Checks' });
    const items = dialog.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(2);
    expect(await dialog.innerText()).toContain('No available font has Cherokee characters Ꭳ Ꮟ Ᏺ');
    expect(await seriousViolations(frame)).toEqual([]);
    await items.first().getByRole('button', { name: 'Select the element t1' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // Selected: the properties panel edits the headline.
    await frame.getByRole('textbox', { name: 'Text', exact: true }).waitFor();
  }, 60_000);

  it('clears the checks once the saved text fits and every character has a font', async () => {
    const field = frame.getByRole('textbox', { name: 'Text', exact: true });
    await field.fill('Short');
    await field.blur();
    await frame.getByRole('button', { name: 'Checks: all clear' }).waitFor({ timeout: 30_000 });
    expect(await frame.locator('.pe-finding-mark').count()).toBe(0);
    expect(await frame.locator('.pe-overlay .pe-finding').count()).toBe(0);
  }, 60_000);
});
