/**
 * The console's history panel in Debian's Chromium against the real server: a member publishes two
 * versions with notes, compares a version with the draft (the change list names the changed text,
 * the diff picture loads), is told plainly when a roll back meets a draft saved elsewhere (412,
 * nothing changed), then rolls back and the draft is the version again. axe-core checks the screen;
 * with PLATEN_UPDATE_SCREENSHOTS=1 it is saved as docs/console/template-history.png.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { seriousViolations } from './harness/axe.ts';
import { consolePerson } from './harness/console.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';
import { chromiumMissing, ensureStudioBuilt, launchChromium } from './harness/studio.ts';

if (chromiumMissing) console.log(`console history browser test skipped: ${chromiumMissing}`);

const SCREENSHOT = join(import.meta.dirname, '..', 'docs', 'console', 'template-history.png');

describe.skipIf(chromiumMissing !== null)('the console history panel (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let key = '';
  let workspaceId = '';
  let templateId = '';
  const api = (method: string, path: string, body?: unknown) =>
    http(server.base, method, path, { body, headers: bearer(key) });
  const draftText = async () =>
    (await api('GET', `/v1/templates/${templateId}`)).json.document.pages[0].elements[1].text as string;

  beforeAll(async () => {
    await ensureStudioBuilt();
    server = await startTestServer();
    ({ key, workspaceId } = await workspaceWithKey(server.base, { credits: 10 }));
    const person = await consolePerson(server.base, { workspaceIds: [workspaceId] });
    const created = await api('POST', '/v1/templates', {
      name: 'Sale card',
      document: simpleDocument('One'),
    });
    templateId = created.json.id;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, ...value] = person.cookie.split('=');
    await context.addCookies([{ name: name ?? '', value: value.join('='), url: server.base }]);
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function publish(note: string, expected: string): Promise<void> {
    await page.getByLabel('Note (optional)').fill(note);
    await page.getByRole('button', { name: 'Publish the draft' }).click();
    await page.getByRole('status').getByText(expected).waitFor();
  }

  it('publishes two versions from the Templates screen’s History link', async () => {
    await page.goto(`${server.base}/console/#/w/${workspaceId}/templates`);
    await page.getByRole('link', { name: 'History of Sale card' }).click();
    await page.getByRole('heading', { name: 'History of Sale card' }).waitFor();
    await page.getByText('Nothing published yet').waitFor();
    await publish('first', 'Published version 1.');
    expect(
      (await api('PUT', `/v1/templates/${templateId}`, { document: simpleDocument('Two') })).status,
    ).toBe(200);
    await publish('second', 'Published version 2.');
    const rows = page.getByRole('table', { name: 'Versions' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(1).innerText()).toMatch(/^2\s+second\s+person:/);
    expect(await rows.nth(2).innerText()).toMatch(/^1\s+first\s+person:/);
    // An unchanged draft makes no third version.
    await publish('again', 'Nothing changed since version 2: no new version was made.');
  }, 60_000);

  it('compares a version with the draft: the change list and the diff picture', async () => {
    await api('PUT', `/v1/templates/${templateId}`, { document: simpleDocument('Three') });
    await page.getByRole('button', { name: 'Compare version 1 with the draft' }).click();
    const changes = page.getByRole('list', { name: 'Changes' });
    await changes.waitFor({ timeout: 30_000 });
    expect(await changes.innerText()).toContain('Changed pages[p1].elements[t1].text from "One" to "Three"');
    const picture = page.getByRole('img', { name: /What changed on the page from version 1 → the draft/ });
    await picture.waitFor();
    await expect
      .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);

    // Two versions, chosen in the form.
    await page.getByLabel('From', { exact: true }).selectOption('1');
    await page.getByLabel('To', { exact: true }).selectOption('2');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByRole('heading', { name: 'Changes from version 1 → version 2' }).waitFor();
    expect(await changes.innerText()).toContain('from "One" to "Two"');

    await page.waitForTimeout(300);
    if (process.env.PLATEN_UPDATE_SCREENSHOTS === '1')
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it('says so when the draft moved on (412), then rolls back to version 1', async () => {
    // Saved elsewhere after the page read the draft's revision.
    await api('PUT', `/v1/templates/${templateId}`, { document: simpleDocument('Four') });
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Roll back to this version (version 1)' }).click();
    await page
      .getByRole('alert')
      .getByText(/The draft was saved elsewhere/)
      .waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('PRECONDITION_FAILED');
    expect(await draftText()).toBe('Four');

    // The page read the draft again: the next try goes through.
    await page.waitForTimeout(300);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Roll back to this version (version 1)' }).click();
    await page.getByRole('status').getByText('The draft is now a copy of version 1.').waitFor();
    expect(await draftText()).toBe('One');
    // Declining the question changes nothing.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Roll back to this version (version 2)' }).click();
    await page.waitForTimeout(300);
    expect(await draftText()).toBe('One');
  }, 60_000);
});
