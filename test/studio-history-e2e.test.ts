/**
 * The studio's history panel in Debian's Chromium, through /embed.js on a customer page against the
 * real server: publish two versions from the editor (the second after an edit autosaved), compare
 * version 1 with the draft (the change list names the changed text, the diff picture loads), roll
 * back (asked first) and see the editor show version 1's text, saved as the draft. axe-core checks
 * the open panel.
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
  hostEvents,
  launchChromium,
  mintStudioSession,
  openStudio,
  type StudioSession,
  startHostPage,
  waitForEvent,
} from './harness/studio.ts';

if (chromiumMissing) console.log(`studio history e2e test skipped: ${chromiumMissing}`);

describe.skipIf(chromiumMissing !== null)('the studio history panel (Chromium)', () => {
  let server: TestServer;
  let host: HostPage;
  let browser: Browser;
  let page: Page;
  let session: StudioSession;
  let templateId = '';
  let frame: Frame;

  const draftText = async () => {
    const res = await asSession(server.base, session.token)(
      'GET',
      `/v1/embed/${session.embedId}/templates/${templateId}`,
    );
    return res.json.document.pages[0].elements[1].text as string;
  };
  const panel = () => frame.getByRole('dialog', { name: 'History' });
  // Publishing waits for autosave, then the server: generous under a loaded machine (the whole
  // suite, or a second one beside it, on two cores).
  async function publish(note: string, expected: string): Promise<void> {
    await frame.getByRole('button', { name: 'History' }).click();
    await panel().getByLabel('Note (optional)').fill(note);
    await panel().getByRole('button', { name: 'Publish' }).click();
    await panel().getByRole('status').getByText(expected).waitFor({ timeout: 45_000 });
  }

  beforeAll(async () => {
    await ensureStudioBuilt();
    server = await startTestServer();
    host = await startHostPage(server.base);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    session = await mintStudioSession(server);
    const created = await asSession(server.base, session.token)(
      'POST',
      `/v1/embed/${session.embedId}/templates`,
      { body: { name: 'Sale card', document: simpleDocument('One') } },
    );
    templateId = created.json.id;
    ({ frame } = await openStudio(page, host, {
      embedId: session.embedId,
      token: session.token,
      templateId,
    }));
    await frame.getByRole('textbox', { name: 'Design name' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  it('publishes version 1, then version 2 after an edit', async () => {
    await publish('first', 'Published version 1.');
    await panel().getByRole('button', { name: 'Close the history' }).click();

    await frame.getByRole('button', { name: /^Select Text/ }).click();
    const field = frame.getByRole('textbox', { name: 'Text', exact: true });
    await field.fill('Two');
    await field.blur();
    // Publishing waits for autosave, so the edit is in version 2 whatever the timing.
    await publish('second', 'Published version 2.');
    const versions = panel().getByRole('list', { name: 'Versions' }).getByRole('listitem');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.nth(0).innerText()).toMatch(/Version 2 · second/);
    expect(await versions.nth(1).innerText()).toMatch(/Version 1 · first/);
    expect(await draftText()).toBe('Two');
  }, 120_000);

  it('compares version 1 with the draft: the change list and the diff picture', async () => {
    await panel().getByRole('button', { name: 'Compare version 1 with the draft' }).click();
    await panel().getByRole('heading', { name: 'Changes from version 1 to the draft' }).waitFor();
    const changes = panel().getByRole('list', { name: 'Changes' });
    await changes.waitFor({ timeout: 30_000 });
    expect(await changes.innerText()).toContain('Changed pages[p1].elements[t1].text from "One" to "Two"');
    const picture = panel().getByRole('img', {
      name: /What changed on the page from version 1 to the draft/,
    });
    await picture.waitFor();
    await expect
      .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);

    expect(await seriousViolations(frame)).toEqual([]);
  }, 120_000);

  it('rolls back to version 1: asked first, then the editor shows it and the draft is it', async () => {
    await panel().getByRole('button', { name: 'Roll back to version 1' }).click();
    await panel().getByRole('button', { name: 'Cancel' }).click();
    expect(await draftText()).toBe('Two');

    const savedBefore = (await hostEvents(page)).filter((e) => e.type === 'saved').length;
    await panel().getByRole('button', { name: 'Roll back to version 1' }).click();
    await panel().getByRole('button', { name: 'Yes, roll back to version 1' }).click();
    await panel().getByRole('status').getByText('The draft is now a copy of version 1.').waitFor();
    await waitForEvent(page, 'saved', savedBefore);
    expect(await draftText()).toBe('One');
    // The compare follows: version 1 and the draft are the same now.
    await panel().getByText('No changes.').waitFor({ timeout: 30_000 });

    await panel().getByRole('button', { name: 'Close the history' }).click();
    await frame.getByRole('button', { name: /^Select Text/ }).click();
    await expect
      .poll(() => frame.getByRole('textbox', { name: 'Text', exact: true }).inputValue())
      .toBe('One');
    // No stale save follows: the draft stays version 1's copy.
    await page.waitForTimeout(1500);
    expect(await draftText()).toBe('One');
  }, 120_000);
});
