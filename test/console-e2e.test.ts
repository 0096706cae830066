/**
 * The console in Debian's Chromium against the real server: the first start's setup link creates
 * the operator, who signs in, creates a workspace and a key, a template (opened in the studio and
 * rendered from the render test), an embed (snippet copied) and a webhook (a delivery in its log,
 * redelivered); a member who puts another workspace's id in the URL gets 404, and one who opens an
 * operator screen is told it is for operators. On the Users screen a second operator unlocks a person
 * whom real failed sign-ins slowed down, disables, enables, moves, promotes and deletes them, issues
 * a reset link that opens the real reset page, and is told the service's 409 and 400; the Audit
 * screen filters and pages entries made by real actions. axe-core checks every screen. With
 * PLATEN_UPDATE_SCREENSHOTS=1 each screen is saved under docs/console/.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import {
  ADMIN_TOKEN,
  admin,
  bearer,
  http,
  startOrigin,
  startTestServer,
  type TestServer,
} from './harness/server.ts';
import { chromiumMissing, ensureStudioBuilt, launchChromium } from './harness/studio.ts';

if (chromiumMissing) console.log(`console browser test skipped: ${chromiumMissing}`);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCREENSHOTS = process.env.PLATEN_UPDATE_SCREENSHOTS === '1';
const SHOTS_DIR = join(import.meta.dirname, '..', 'docs', 'console');
const PASSWORD = 'correct horse battery';
const PROMO_CARD = join(import.meta.dirname, '..', 'src', 'design', 'fixtures', 'promo-card.json');
let promoCardId = '';
/**
 * PLATEN_SIGNIN_MAX_FAILURES_PER_ACCOUNT of this server: failures of one account from one address
 * before a delay; from anywhere, five times as many (src/people/lockout.ts).
 */
const MAX_FAILURES_PER_ACCOUNT = 1;
const ACCOUNT_THRESHOLD = 5 * MAX_FAILURES_PER_ACCOUNT;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    // Sign-in failures come from strangers' addresses, forwarded by a proxy on loopback.
    server = await startTestServer('sqlite', {
      PLATEN_TRUST_PROXY: '127.0.0.1',
      PLATEN_SIGNIN_MAX_FAILURES_PER_ACCOUNT: String(MAX_FAILURES_PER_ACCOUNT),
    });
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
  let strangers = 0;

  /**
   * `count` wrong passwords for `email` through the sign-in form, each from a stranger's address of
   * its own, waiting out each delay its Retry-After names: past ACCOUNT_THRESHOLD the account is
   * slowed down from anywhere, twice as long with each further failure.
   */
  async function failSignIns(email: string, count: number): Promise<void> {
    for (let failed = 0, tries = 0; failed < count; tries++) {
      expect(tries).toBeLessThan(3 * count);
      const answer = await http(server.base, 'POST', '/oauth/signin', {
        raw: new URLSearchParams({ email, password: 'a wrong guess' }).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: server.base,
          'x-forwarded-for': `198.51.100.${++strangers}`,
        },
      });
      if (answer.status === 429) {
        const retryAfter = answer.headers.get('retry-after') ?? '';
        expect(retryAfter).toMatch(/^\d+$/);
        await sleep(Number(retryAfter) * 1000);
      } else {
        expect(answer.status).toBe(400);
        failed++;
      }
    }
  }

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

  it('shows a key by its prefix and one ellipsis', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    const shown = await page
      .getByRole('row', { name: /Backend/ })
      .locator('code')
      .first()
      .textContent();
    expect(shown).toMatch(/^plt_[^…]{4}…$/);
  }, 30_000);

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

  it('reads the balance above the render test again after each render', async () => {
    await page.goto(`${server.base}/console/#/w/${workspaceIdOf()}/render/${promoCardId}`);
    // New values: a render never made before, so it is charged.
    await page.getByLabel('headline').fill(`Balance check ${Date.now()}`);
    await page.getByTestId('balance').waitFor();
    await page.getByRole('button', { name: 'Render', exact: true }).click();
    const rendered = page.getByText(/Rendered: charged 1, balance \d+/);
    await rendered.waitFor({ timeout: 30_000 });
    const balanceAfter = /balance (\d+)/.exec((await rendered.textContent()) ?? '')?.[1];
    await expect.poll(() => page.getByTestId('balance').textContent(), { timeout: 5_000 }).toBe(balanceAfter);
  }, 60_000);

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

  it('shows a new delivery in the open log without a click', async () => {
    const log = page.getByRole('table', { name: 'Deliveries' });
    // Whatever the redelivery added is in the log before counting.
    await page.waitForTimeout(2_000);
    await page.getByRole('button', { name: 'Refresh log' }).click();
    await page.waitForTimeout(1_000);
    const before = await log.getByRole('row').count();
    const key = await admin(server.base, 'POST', `/workspaces/${workspaceIdOf()}/api-keys`, {
      scopes: ['template:read', 'render:write'],
    });
    const accepted = await http(server.base, 'POST', `/v1/templates/${promoCardId}/render`, {
      headers: bearer(key.json.key),
      body: { format: 'png', async: true, modifications: { headline: `Hook check ${Date.now()}` } },
    });
    expect(accepted.status).toBe(202);
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(3);
    await expect.poll(() => log.getByRole('row').count(), { timeout: 15_000 }).toBeGreaterThan(before);
  }, 60_000);

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

  it('tells a member who opens an operator screen by its address that it is for operators', async () => {
    const memberContext = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const member = await memberContext.newPage();
    await member.goto(`${server.base}/console/`);
    await member.getByLabel('Email').fill('member@example.com');
    await member.getByLabel('Password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Sign in' }).click();
    await member.getByRole('heading', { name: 'Templates' }).waitFor();
    for (const screen of ['users', 'audit', 'workspaces']) {
      await member.goto(`${server.base}/console/#/${screen}`);
      await member
        .getByRole('heading', { name: 'Only operators can see this page' })
        .waitFor({ timeout: 5_000 });
      expect(await member.getByText('Loading the console').count()).toBe(0);
    }
    violations.push(...(await check(member, 'operators-only')));
    await member.getByRole('link', { name: 'Go to the templates of default' }).click();
    await member.getByRole('heading', { name: 'Templates' }).waitFor();
    await memberContext.close();
  }, 60_000);

  it('manages people on the Users screen, against the operator API', async () => {
    const workspaces = (await admin(server.base, 'GET', '/workspaces')).json.items as {
      id: string;
      name: string;
    }[];
    const acme = workspaces.find((w) => w.name === 'Acme')?.id ?? '';
    const other = workspaces.find((w) => w.name === 'default')?.id ?? '';
    const users = (await admin(server.base, 'GET', '/users')).json.items as { id: string; email: string }[];
    // The first operator, from the setup link: an operator without a workspace.
    const first = users.find((u) => u.email === 'ops@example.com')?.id ?? '';
    const create = async (email: string, more: { operator?: boolean; workspaceIds: string[] }) => {
      const created = await admin(server.base, 'POST', '/users', { email, password: PASSWORD, ...more });
      expect(created.status).toBe(201);
      return created.json.id as string;
    };
    // The operator at the screen, a member of Acme too, and a member of Acme whom strangers' wrong
    // passwords slow down meanwhile (waiting out each delay takes a few seconds).
    const me = await create('lead@example.com', { operator: true, workspaceIds: [acme] });
    const locked = await create('locked@example.com', { workspaceIds: [acme] });
    const slowingDown = failSignIns('locked@example.com', ACCOUNT_THRESHOLD + 3);
    slowingDown.catch(() => {});

    const leadContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await leadContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    const ops = await leadContext.newPage();
    ops.on('dialog', (dialog) => void dialog.accept());
    const calls: string[] = [];
    ops.on('response', (response) => {
      const request = response.request();
      const path = new URL(request.url()).pathname;
      if (!path.startsWith('/admin/v1/users') || request.method() === 'GET') return;
      const body = request.postData();
      calls.push(`${request.method()} ${path}${body ? ` ${body}` : ''} ${response.status()}`);
    });
    await ops.goto(`${server.base}/console/`);
    await ops.getByLabel('Email').fill('lead@example.com');
    await ops.getByLabel('Password').fill(PASSWORD);
    await ops.getByRole('button', { name: 'Sign in' }).click();
    await ops.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await ops.goto(`${server.base}/console/#/users`);
    const row = (email: string) =>
      ops.getByRole('row', { name: new RegExp(`^${email.replace('.', '\\.')}`) });
    await row('locked@example.com').waitFor();
    expect(await row('lead@example.com').getByText('you', { exact: true }).count()).toBe(1);
    expect(await row('ops@example.com').getByText('you', { exact: true }).count()).toBe(0);

    // Demoting the last enabled operator: with the first one disabled for a moment, that is the one
    // signed in here (every enabled operator of the deployment counts). The service's reason, in words.
    expect((await admin(server.base, 'PATCH', `/users/${first}`, { disabled: true })).status).toBe(200);
    try {
      await row('lead@example.com').getByRole('button', { name: 'Demote' }).click();
      await ops
        .getByRole('alert')
        .getByText('This would leave no enabled operator: promote or enable another one first.')
        .waitFor();
    } finally {
      expect((await admin(server.base, 'PATCH', `/users/${first}`, { disabled: false })).status).toBe(200);
    }
    // An operator without a workspace cannot become a member: refused, and said so.
    await row('ops@example.com').getByRole('button', { name: 'Demote' }).click();
    await ops
      .getByRole('alert')
      .getByText(/A member needs at least one workspace/)
      .first()
      .waitFor();
    for (const id of [me, first])
      expect((await admin(server.base, 'GET', `/users/${id}`)).json).toMatchObject({
        operator: true,
        disabled: false,
      });

    // Slowed down by now: the screen, loaded again, says until when, and unlocks.
    await slowingDown;
    const until = (await admin(server.base, 'GET', `/users/${locked}`)).json.lockedUntil;
    expect(Date.parse(until)).toBeGreaterThan(Date.now());
    await ops.reload();
    await row('locked@example.com').getByText('Locked until').waitFor();
    for (const email of ['ops@example.com', 'lead@example.com'])
      expect(
        await row(email)
          .getByRole('button', { name: /Unlock sign-in/ })
          .count(),
      ).toBe(0);
    await row('locked@example.com').scrollIntoViewIfNeeded();
    violations.push(...(await check(ops, 'users-manage')));
    await row('locked@example.com').getByRole('button', { name: 'Unlock sign-in' }).click();
    await row('locked@example.com').getByText('Active').waitFor();
    expect(await ops.getByRole('button', { name: /Unlock sign-in/ }).count()).toBe(0);
    // Unlocked rather than waited out: the failures are forgotten, so one more slows nothing down.
    await failSignIns('locked@example.com', 1);
    expect((await admin(server.base, 'GET', `/users/${locked}`)).json.lockedUntil).toBeNull();

    await row('locked@example.com').getByRole('button', { name: 'Disable' }).click();
    await row('locked@example.com').getByText('Disabled').waitFor();
    await row('locked@example.com').getByRole('button', { name: 'Enable' }).click();
    await row('locked@example.com').getByText('Active').waitFor();

    await row('locked@example.com').getByRole('button', { name: 'Edit memberships' }).click();
    const memberships = ops.getByRole('form', { name: 'Memberships of locked@example.com' });
    await memberships.getByLabel('Acme').uncheck();
    expect(await memberships.getByRole('button', { name: 'Save memberships' }).isDisabled()).toBe(true);
    await memberships.getByLabel('default').check();
    await memberships.getByRole('button', { name: 'Save memberships' }).click();
    await row('locked@example.com').getByRole('cell', { name: 'default', exact: true }).waitFor();

    await row('locked@example.com').getByRole('button', { name: 'Promote to operator' }).click();
    await row('locked@example.com').getByRole('cell', { name: 'Operator', exact: true }).waitFor();

    await row('locked@example.com').getByRole('button', { name: 'Issue password-reset link' }).click();
    const link = ops.getByRole('region', { name: 'Password-reset link for locked@example.com' });
    const url = (await link.getByTestId('secret').textContent()) ?? '';
    expect(url.startsWith(`${server.base}/console/reset/`)).toBe(true);
    expect(url.slice(`${server.base}/console/reset/`.length)).toMatch(/^[\w-]{40,}$/);
    await link.getByText(/It works once, until/).waitFor();
    await link.getByRole('button', { name: /Copy/ }).click();
    expect(await ops.evaluate(() => navigator.clipboard.readText())).toBe(url);
    violations.push(...(await check(ops, 'users-reset-link')));
    await link.getByRole('button', { name: 'Done' }).click();

    // The link opens the reset page, whose new password signs the person in to the console.
    const theirs = await browser.newContext();
    const reset = await theirs.newPage();
    expect((await reset.goto(url))?.status()).toBe(200);
    await reset.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await reset.getByLabel('New password (at least 8 characters)').fill('a new password here');
    await reset.getByLabel('New password again').fill('a new password here');
    await reset.getByRole('button', { name: 'Set the password' }).click();
    await reset.getByText('locked@example.com (operator)').waitFor();
    expect(new URL(reset.url()).pathname).toBe('/console/');
    await theirs.close();

    await row('locked@example.com').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row('locked@example.com').count()).toBe(0);
    expect((await admin(server.base, 'GET', `/users/${locked}`)).status).toBe(404);

    expect(calls).toEqual([
      `PATCH /admin/v1/users/${me} {"operator":false} 409`,
      `PATCH /admin/v1/users/${first} {"operator":false} 400`,
      `POST /admin/v1/users/${locked}/unlock 204`,
      `PATCH /admin/v1/users/${locked} {"disabled":true} 200`,
      `PATCH /admin/v1/users/${locked} {"disabled":false} 200`,
      `PATCH /admin/v1/users/${locked} {"workspaceIds":["${other}"]} 200`,
      `PATCH /admin/v1/users/${locked} {"operator":true} 200`,
      `POST /admin/v1/users/${locked}/password-reset 201`,
      `DELETE /admin/v1/users/${locked} 204`,
    ]);
    await leadContext.close();
  }, 90_000);

  it('filters and pages the audit log, against the operator API', async () => {
    // Sixty-one entries of a workspace of its own, by real actions: the operator token (through a
    // trusted proxy, so from the forwarded address) creates it and 55 keys, an operator in the
    // console 5 more keys. They are the newest entries of the deployment.
    const auditor = await admin(server.base, 'POST', '/users', {
      email: 'auditor@example.com',
      password: PASSWORD,
      operator: true,
      workspaceIds: [],
    });
    expect(auditor.status).toBe(201);
    const proxied = { ...bearer(ADMIN_TOKEN), 'x-forwarded-for': '203.0.113.7' };
    const created = await http(server.base, 'POST', '/admin/v1/workspaces', {
      headers: proxied,
      body: { name: 'Globex', credits: 0 },
    });
    expect(created.status).toBe(201);
    const globex = created.json.id as string;
    for (let i = 1; i <= 55; i++) {
      const key = await http(server.base, 'POST', `/admin/v1/workspaces/${globex}/api-keys`, {
        headers: proxied,
        body: { name: `Batch key ${i}`, scopes: ['render:write'] },
      });
      expect(key.status).toBe(201);
    }
    const auditorContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const audit = await auditorContext.newPage();
    await audit.goto(`${server.base}/console/`);
    await audit.getByLabel('Email').fill('auditor@example.com');
    await audit.getByLabel('Password').fill(PASSWORD);
    await audit.getByRole('button', { name: 'Sign in' }).click();
    await audit.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await audit.goto(`${server.base}/console/#/w/${globex}/keys`);
    for (let i = 1; i <= 5; i++) {
      await audit.getByLabel('Name').fill(`Console key ${i}`);
      await audit.getByRole('button', { name: 'Create key' }).click();
      await audit.getByRole('cell', { name: `Console key ${i}`, exact: true }).waitFor();
    }

    const queries: string[] = [];
    audit.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/admin/v1/audit-log') queries.push(url.searchParams.toString());
    });
    const answered = (query: string) =>
      audit.waitForResponse((r) => r.url() === `${server.base}/admin/v1/audit-log?${query}` && r.ok());
    const table = audit.getByRole('table', { name: 'Audit entries' });
    const filters = audit.getByRole('form', { name: 'Filter the audit log' });
    await audit.goto(`${server.base}/console/#/audit`);
    await table.getByRole('cell', { name: 'auditor@example.com' }).first().waitFor();
    expect(await table.getByRole('row').count()).toBe(51);
    expect(await table.getByRole('cell', { name: 'auditor@example.com' }).count()).toBe(5);
    await table.getByRole('cell', { name: 'operator token' }).first().waitFor();
    await table.getByRole('cell', { name: 'Globex', exact: true }).first().waitFor();
    await table.getByRole('cell', { name: '203.0.113.7' }).first().waitFor();
    await table.getByRole('cell', { name: '127.0.0.1' }).first().waitFor();
    violations.push(...(await check(audit, 'audit-log-filters')));

    const byWorkspace = `limit=50&workspaceId=${globex}`;
    await Promise.all([
      answered(byWorkspace),
      filters.getByLabel('Workspace').selectOption({ label: 'Globex' }),
    ]);
    const cursor = (await admin(server.base, 'GET', `/audit-log?${byWorkspace}`)).json.nextCursor as string;
    const older = new URLSearchParams({ limit: '50', cursor, workspaceId: globex }).toString();
    await Promise.all([answered(older), audit.getByRole('button', { name: 'Load more' }).click()]);
    await expect.poll(() => table.getByRole('row').count()).toBe(62);
    await audit.getByText('61 entries shown.').waitFor();
    expect(await audit.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    await filters.getByLabel('Action').selectOption('workspace.created');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await table.getByRole('cell', { name: '203.0.113.7' }).waitFor();
    // People's entries name no workspace.
    await filters.getByLabel('Action').selectOption('user.created');
    await audit.getByText('No entries match these filters.').waitFor();
    await audit.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(51);
    await filters.getByLabel('Person').selectOption({ label: 'auditor@example.com' });
    await expect.poll(() => table.getByRole('row').count()).toBe(6);
    expect(await table.getByRole('cell', { name: 'auditor@example.com' }).count()).toBe(5);

    expect(queries).toEqual([
      'limit=50',
      byWorkspace,
      older,
      `${byWorkspace}&action=workspace.created`,
      `${byWorkspace}&action=user.created`,
      'limit=50',
      `limit=50&userId=${auditor.json.id}`,
    ]);
    await auditorContext.close();
  }, 90_000);

  it('has no serious or critical accessibility violations on any screen', () => {
    expect(violations).toEqual([]);
  });
});
