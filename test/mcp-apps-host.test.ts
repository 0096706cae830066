/**
 * The MCP App driven in Chromium through a host (test/harness/mcp-app-host): the page reads the
 * app's HTML from the real server, runs it in a sandboxed iframe under the CSP it declares, and
 * bridges it with the package's AppBridge to an SDK client holding a real OAuth token. The app
 * shows the variables as a form; an edit re-renders a free preview; "Render" renders for a credit;
 * "Open in studio" asks the host to open the console. Under a read-only token the render is
 * refused as any call is, and the app says so.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { chromiumMissing, launchChromium } from './harness/chromium.ts';
import { accessTokenFor, type Person } from './harness/mcp.ts';
import type { HostLog, HostRun } from './harness/mcp-app-host/host.ts';
import { type AppHostPage, startAppHostPage } from './harness/mcp-app-host.ts';
import { createUser } from './harness/oauth.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

if (chromiumMissing) console.log(`MCP Apps host test skipped: ${chromiumMissing}`);

describe.skipIf(chromiumMissing !== null)('the MCP App in a host (Chromium)', () => {
  let server: TestServer;
  let host: AppHostPage;
  let browser: Browser;
  let person: Person;
  let workspaceId: string;
  let workspaceKey: string;
  let templateId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const workspace = await workspaceWithKey(server.base, { credits: 10 });
    workspaceId = workspace.workspaceId;
    workspaceKey = workspace.key;
    person = { email: 'apps-host@example.com', password: 'correct horse battery', workspaceId };
    await createUser(server.base, { ...person, workspaceIds: [workspaceId] });
    const created = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 'Card', document: simpleDocument() },
      headers: bearer(workspace.key),
    });
    templateId = created.json.id;
    host = await startAppHostPage();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  // Each test drives Chromium through several renders: on a loaded machine (the whole suite on two
  // cores) that outlasts the default 30 s.

  /** Opens the host, lets the agent call `tool`, and answers the app's frame once it has a form. */
  async function openApp(scope: string, tool: string, args: Record<string, unknown>) {
    const token = await accessTokenFor(server.base, person, scope);
    const page = await browser.newPage({ viewport: { width: 800, height: 720 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // The SDK client tries a GET for a server-sent stream once; this stateless server answers 405.
      if (message.type() === 'error' && !message.text().includes('405 (Method Not Allowed)'))
        problems.push(message.text());
    });
    await page.goto(host.url);
    const run: HostRun = { base: server.base, token, tool, args };
    await page.evaluate((hostRun) => window.runHost(hostRun), run);
    const frame = await (await page.waitForSelector('iframe#app')).contentFrame();
    if (!frame) throw new Error('no app frame');
    await frame.waitForSelector('#variables input[name="name"]');
    return { page, frame, problems };
  }

  const hostLog = (page: Page) => page.evaluate(() => window.hostLog) as Promise<HostLog>;

  /** The picture's src once it shows a loaded image other than `previous`. */
  async function pictureChangedFrom(frame: Frame, previous: string | null): Promise<string> {
    await frame.waitForFunction((before) => {
      const img = document.querySelector<HTMLImageElement>('#picture');
      return !!img?.getAttribute('src') && img.src !== before && img.complete && img.naturalWidth > 0;
    }, previous);
    return frame.$eval('#picture', (img) => (img as HTMLImageElement).src);
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    const path = join(tmpdir(), `platen-mcp-app-${name}.png`);
    await page.screenshot({ path, fullPage: true });
    console.log(`MCP App screenshot: ${path}`);
  }

  it('shows the form, previews an edit, renders for a credit and opens the studio', async () => {
    const { page, frame, problems } = await openApp(
      'template:read template:write render:write',
      'get_template',
      { templateId },
    );
    expect(await frame.textContent('h1')).toBe('Card');
    const labels = await frame.$$eval('#variables label', (nodes) => nodes.map((n) => n.textContent));
    expect(labels).toEqual([
      'card',
      'card.visible',
      'headline',
      'headline.color',
      'headline.visible',
      'name',
    ]);
    expect(await frame.getAttribute('#variables input[name="card"]', 'type')).toBe('color');
    expect(await frame.isChecked('#variables input[name="headline.visible"]')).toBe(true);

    // get_template's result has no picture: the app asks a free preview at once.
    const first = await pictureChangedFrom(frame, null);
    expect(first.startsWith('data:image/png;base64,')).toBe(true);
    expect(await frame.textContent('#caption')).toContain('Preview');

    await frame.fill('#variables input[name="name"]', 'Ada Lovelace');
    const edited = await pictureChangedFrom(frame, first);
    expect(edited.startsWith('data:image/')).toBe(true);
    expect((await hostLog(page)).toolCalls).toEqual([
      'get_template', // the agent's
      'get_template_variables',
      'preview_template',
      'preview_template',
    ]);

    await frame.click('#render');
    const rendered = await pictureChangedFrom(frame, edited);
    expect(rendered.startsWith('data:image/png;base64,')).toBe(true);
    await frame.waitForFunction(() => document.querySelector('#caption')?.textContent?.includes('Rendered'));
    expect(await frame.textContent('#caption')).toContain('1 credit (balance 9)');
    expect((await hostLog(page)).toolCalls.at(-1)).toBe('render_template');
    // Clicking Render took the focus from the edited field, whose `change` follows: no preview of
    // the same values comes after its pause (400 ms) to replace the render (it did, under load
    // before the render's answer, and the render was never shown).
    await page.waitForTimeout(1000);
    expect(await frame.textContent('#caption')).toContain('Rendered');
    expect((await hostLog(page)).toolCalls.at(-1)).toBe('render_template');

    await frame.click('#open-studio');
    await page.waitForFunction(() => window.hostLog.openedLinks.length > 0);
    expect((await hostLog(page)).openedLinks).toEqual([
      `${server.base}/console/#/w/${workspaceId}/studio/${templateId}`,
    ]);
    expect(await frame.textContent('#error')).toBe('');
    expect((await hostLog(page)).csp).toContain(`img-src data: ${server.base}`);
    await screenshot(page, 'rendered');
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("shows the agent's render at once, from render_template's result", async () => {
    const { page, frame } = await openApp('template:read render:write', 'render_template', {
      templateId,
      modifications: { name: 'Agent' },
    });
    const shown = await pictureChangedFrom(frame, null);
    expect(shown.startsWith('data:image/png;base64,')).toBe(true);
    expect(await frame.textContent('#caption')).toBe('Rendered by the agent.');
    // The agent's values fill the form.
    expect(await frame.inputValue('#variables input[name="name"]')).toBe('Agent');
    expect((await hostLog(page)).toolCalls).toEqual(['render_template', 'get_template_variables']);

    // A render too big to come back inline is shown from its file URL: the declared CSP lets the
    // service's origin in (the spec's default policy would block it).
    const render = await http(server.base, 'POST', `/v1/templates/${templateId}/render`, {
      body: { modifications: { name: 'By URL' } },
      headers: bearer(workspaceKey),
    });
    const url: string = render.json.url;
    expect(url.startsWith(`${server.base}/files/`)).toBe(true);
    const loaded = await frame.evaluate(
      (src) =>
        new Promise<number>((resolve) => {
          const img = new Image();
          img.onload = () => resolve(img.naturalWidth);
          img.onerror = () => resolve(0);
          img.src = src;
        }),
      url,
    );
    expect(loaded).toBeGreaterThan(0);
    await page.close();
  }, 90_000);

  it('under a read-only token previews, but the render is refused like any call and the app says so', async () => {
    const { page, frame } = await openApp('template:read', 'get_template', { templateId });
    const first = await pictureChangedFrom(frame, null);
    await frame.fill('#variables input[name="name"]', 'Read only');
    const edited = await pictureChangedFrom(frame, first);

    await frame.click('#render');
    await frame.waitForFunction(() => (document.querySelector('#error')?.textContent ?? '') !== '');
    const error = await frame.textContent('#error');
    expect(error).toContain('INSUFFICIENT_SCOPE');
    expect(error).toContain('render:write');
    expect(await frame.getAttribute('#error', 'role')).toBe('alert');
    // The refused render changed nothing: the preview stays.
    expect(await frame.$eval('#picture', (img) => (img as HTMLImageElement).src)).toBe(edited);
    expect((await hostLog(page)).toolCalls.at(-1)).toBe('render_template');
    await screenshot(page, 'refused');
    await page.close();
  }, 90_000);
});
