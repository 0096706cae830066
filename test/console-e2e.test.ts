/**
 * The console in Debian's Chromium against the real server: the first start's setup link creates
 * the operator, who signs in, creates a workspace and a key, a template (opened in the studio and
 * rendered from the render test), an embed (snippet copied) and a webhook (a delivery in its log,
 * redelivered); a member who puts another workspace's id in the URL gets 404. axe-core checks
 * every screen. With PLATEN_UPDATE_SCREENSHOTS=1 each screen is saved under docs/console/.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { admin, bearer, http, startOrigin, startTestServer, type TestServer } from './harness/server.ts';
import { chromiumMissing, ensureStudioBuilt, launchChromium } from './harness/studio.ts';

if (chromiumMissing) console.log(`console browser test skipped: ${chromiumMissing}`);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCREENSHOTS = process.env.PLATEN_UPDATE_SCREENSHOTS === '1';
const SHOTS_DIR = join(import.meta.dirname, '..', 'docs', 'console');
const PASSWORD = 'correct horse battery';
const PROMO_CARD = join(import.meta.dirname, '..', 'src', 'design', 'fixtures', 'promo-card.json');
let promoCardId = '';

interface Violation {
  id: string;
  impact: string | null;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical violations on the page as it stands (and a screenshot if asked). */
async function check(page: Page, screen: string): Promise<string[]> {
  await page.waitForTimeout(300);
  if (SCREENSHOTS) await page.screenshot({ path: join(SHOTS_DIR, `${screen}.png`), fullPage: false });
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: unknown[] }> } })
      .axe;
    return (await axe.run(document)).violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${screen}: ${v.id} ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

describe.skipIf(chromiumMissing !== null)('the console (Chromium, axe-core)', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let setupUrl = '';
  let receiver: { base: string; close(): Promise<void> };
  const received: string[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    if (SCREENSHOTS) await mkdir(SHOTS_DIR, { recursive: true });
    await ensureStudioBuilt();
    server = await startTestServer();
    let printed = '';
    await bootstrapIfEmpty(server.services, (text) => {
      printed += text;
    });
    setupUrl = /(http:\/\/\S+\/console\/setup\?token=\S+)/.exec(printed)?.[1] ?? '';
    receiver = await startOrigin((request, response) => {
      received.push(String(request.headers['webhook-id']));
      response.writeHead(204).end();
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  const workspaceIdOf = () => /#\/w\/([^/]+)\//.exec(page.url())?.[1] ?? '';

  it('first start: the setup link creates the operator, who then signs in', async () => {
    expect(setupUrl).not.toBe('');
    await page.goto(setupUrl);
    violations.push(...(await check(page, 'setup')));
    await page.getByLabel('Email').fill('ops@example.com');
    await page.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the operator account' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    violations.push(...(await check(page, 'sign-in')));
    await page.getByLabel('Email').fill('ops@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    expect(await page.getByText('ops@example.com (operator)').count()).toBe(1);
  }, 60_000);

  it('creates a workspace, grants credits and creates a key shown once', async () => {
    await page.getByLabel('Name').fill('Acme');
    await page.getByLabel('Starting credits').fill('50');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    const acme = page.getByRole('row', { name: /Acme/ });
    await acme.waitFor();
    await acme.getByLabel('Credits to grant to Acme').fill('25');
    await acme.getByRole('button', { name: 'Grant' }).click();
    await acme.getByText('75', { exact: true }).waitFor();
    violations.push(...(await check(page, 'workspaces')));

    await acme.getByRole('link', { name: 'Acme' }).click();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Backend');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByTestId('secret').textContent();
    expect(secret).toMatch(/^plt_/);
    const works = await http(server.base, 'GET', '/v1/templates', { headers: bearer(secret ?? '') });
    expect(works.status).toBe(200);
    await expect
      .poll(
        async () =>
          (await admin(server.base, 'GET', `/workspaces/${workspaceIdOf()}/api-keys`)).json.items[0]
            ?.lastUsedAt,
      )
      .toMatch(/^\d{4}-/);
    // The backend's own work, for the lists and charts: a promo card rendered in three formats.
    const card = await http(server.base, 'POST', '/v1/templates', {
      headers: bearer(secret ?? ''),
      body: { name: 'Promo card', document: JSON.parse(readFileSync(PROMO_CARD, 'utf8')) },
    });
    promoCardId = card.json.id;
    for (const format of ['png', 'jpeg', 'pdf']) {
      const rendered = await http(server.base, 'POST', `/v1/templates/${promoCardId}/render`, {
        headers: bearer(secret ?? ''),
        body: { format, modifications: { headline: `Summer sale (${format})` } },
      });
      expect(rendered.status).toBe(200);
    }
    await page.getByRole('cell', { name: 'Backend', exact: true }).waitFor();
    violations.push(...(await check(page, 'api-keys')));
  }, 60_000);

  it('creates a template, opens it in the studio and renders it from the render test', async () => {
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('heading', { name: 'Promo card' }).waitFor();
    await page.getByRole('button', { name: 'New template' }).click();
    const studio = page.frameLocator('.console-studio-frame iframe');
    await studio.getByRole('textbox', { name: 'Design name' }).waitFor({ timeout: 30_000 });
    await studio.getByRole('button', { name: 'Add text' }).click();
    await page.getByRole('status').getByText('Saved').waitFor({ timeout: 30_000 });
    violations.push(...(await check(page, 'studio')));

    await page.getByRole('link', { name: 'Back to templates' }).click();
    await page.getByRole('link', { name: 'Render test of Untitled design' }).click();
    await page.getByTestId('cost').getByText('1', { exact: true }).waitFor();
    await page.getByRole('img', { name: 'Live preview of the first page' }).waitFor();
    violations.push(...(await check(page, 'render-test')));
    await page.getByRole('button', { name: 'Render', exact: true }).click();
    await page.getByText(/Rendered: charged 1, balance 71/).waitFor({ timeout: 30_000 });

    // The render test of a template with variables: the preview follows the form.
    await page.goto(`${server.base}/console/#/w/${workspaceIdOf()}/render/${promoCardId}`);
    await page.getByLabel('headline').fill('Winter deals');
    await page.getByTestId('cost').waitFor();
    violations.push(...(await check(page, 'render-test-variables')));
    await page.getByRole('link', { name: 'Templates', exact: true }).click();
    await expect
      .poll(
        async () => {
          // A reload starts the list over: count only once it has loaded again.
          await page.reload();
          await page.getByRole('heading', { name: 'Promo card' }).waitFor();
          return page.getByRole('img', { name: /Thumbnail of/ }).count();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(2);
    violations.push(...(await check(page, 'templates')));

    await page.getByRole('link', { name: 'Renders', exact: true }).click();
    await page.getByRole('cell', { name: 'Console' }).waitFor();
    violations.push(...(await check(page, 'renders')));
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('img', { name: 'Renders by source, per day' }).waitFor();
    violations.push(...(await check(page, 'usage')));
    await page.getByRole('link', { name: 'Assets' }).click();
    await page.getByText('No assets yet').waitFor();
    violations.push(...(await check(page, 'assets')));
  }, 150_000);

  it('configures an embed and copies its snippet', async () => {
    await page.getByRole('link', { name: 'Embeds' }).click();
    await page.getByRole('button', { name: 'New embed' }).click();
    await page.getByLabel('Brand title').fill('Acme Studio');
    await page.getByText('Acme Studio', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    await page.getByRole('button', { name: /Copy the snippet of embed/ }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`${server.base}/embed.js`);
    expect(copied).toMatch(/Platen\.open\(\{ embedId: 'emb_/);
    violations.push(...(await check(page, 'embeds')));
  }, 60_000);

  it('creates a webhook, shows a delivery in its log and redelivers it', async () => {
    const workspaceId = workspaceIdOf();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill(`${receiver.base}/hook`);
    await page.getByLabel('render.completed').check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    expect(await page.getByTestId('secret').textContent()).toMatch(/^whsec_/);

    const key = await admin(server.base, 'POST', `/workspaces/${workspaceId}/api-keys`, {
      scopes: ['template:read', 'render:write'],
    });
    const templates = await http(server.base, 'GET', '/v1/templates', { headers: bearer(key.json.key) });
    const accepted = await http(server.base, 'POST', `/v1/templates/${templates.json.items[0].id}/render`, {
      headers: bearer(key.json.key),
      body: { format: 'jpeg', async: true },
    });
    expect(accepted.status).toBe(202);
    const log = page.getByRole('table', { name: 'Deliveries' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh log' }).click();
          return log.getByText('delivered').count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    violations.push(...(await check(page, 'webhooks')));
    await log.getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
    expect(received[1]).toBe(received[0]);
  }, 90_000);

  it('shows operators the users and the audit log', async () => {
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('cell', { name: 'ops@example.com' }).waitFor();
    violations.push(...(await check(page, 'users')));
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'api_key.created' }).first().waitFor();
    violations.push(...(await check(page, 'audit-log')));
  }, 60_000);

  it('answers a member who changes the workspace id in the URL with 404', async () => {
    const workspaces = (await admin(server.base, 'GET', '/workspaces')).json.items as {
      id: string;
      name: string;
    }[];
    const mine = workspaces.find((w) => w.name === 'default');
    const acme = workspaces.find((w) => w.name === 'Acme');
    await admin(server.base, 'POST', '/users', {
      email: 'member@example.com',
      password: PASSWORD,
      workspaceIds: [mine?.id],
    });
    const member = await (await browser.newContext({ viewport: { width: 1024, height: 768 } })).newPage();
    await member.goto(`${server.base}/console/`);
    await member.getByLabel('Email').fill('member@example.com');
    await member.getByLabel('Password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Sign in' }).click();
    await member.getByRole('heading', { name: 'Templates' }).waitFor();
    expect(await member.getByRole('link', { name: 'Users' }).count()).toBe(0);

    const answered = member.waitForResponse((r) => r.url().includes('/console/api/workspaces/'));
    await member.goto(`${server.base}/console/#/w/${acme?.id}/keys`);
    expect((await answered).status()).toBe(404);
    await member.getByRole('alert').getByText('NOT_FOUND').waitFor();
    violations.push(...(await check(member, 'not-found-tablet')));
  }, 60_000);

  it('has no serious or critical accessibility violations on any screen', () => {
    expect(violations).toEqual([]);
  });
});
