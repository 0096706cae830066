/**
 * The console's first steps: the setup link printed at the first start creates the first operator
 * once (then 410), signs them in with the OAuth pages' session cookie, and refuses a foreign origin
 * or a bad form without spending the link; operators through the operator API; and the audit log
 * of sensitive actions (key created or revoked, webhook secret rotated, operator created).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty } from '../src/bootstrap.ts';
import { admin, startTestServer, type TestServer } from './harness/server.ts';

let server: TestServer;
let setupUrl = '';

beforeAll(async () => {
  server = await startTestServer();
  let printed = '';
  await bootstrapIfEmpty(server.services, (text) => {
    printed += text;
  });
  setupUrl = /(http:\/\/\S+\/console\/setup\?token=\S+)/.exec(printed)?.[1] ?? '';
});
afterAll(() => server.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function postSetup(fields: Record<string, string>, origin = server.base) {
  return fetch(`${server.base}/console/setup`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: form(fields),
  });
}

describe('the setup link', () => {
  it('is printed at the first start and shows a labelled form', async () => {
    expect(setupUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/setup\?token=[A-Za-z0-9_-]{20,}$/);
    const page = await fetch(setupUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const label of ['<label for="email">', '<label for="password">', '<label for="confirm">'])
      expect(html).toContain(label);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
  });

  it('refuses a foreign origin and a bad form without spending the link', async () => {
    const token = new URL(setupUrl).searchParams.get('token') ?? '';
    const ok = { token, email: 'ops@example.com', password: 'correct horse', confirm: 'correct horse' };
    expect((await postSetup(ok, 'https://evil.example')).status).toBe(403);
    expect((await postSetup({ ...ok, confirm: 'other horse' })).status).toBe(400);
    expect((await postSetup({ ...ok, password: 'short', confirm: 'short' })).status).toBe(400);
    expect((await postSetup({ ...ok, email: 'not an email' })).status).toBe(400);
    expect((await postSetup({ ...ok, token: 'forged' })).status).toBe(410);
    expect((await fetch(setupUrl)).status).toBe(200);
  });

  it('creates the first operator once, signed in with the session cookie; then answers 410', async () => {
    const token = new URL(setupUrl).searchParams.get('token') ?? '';
    const fields = { token, email: 'Ops@Example.com', password: 'correct horse', confirm: 'correct horse' };
    const [first, second] = await Promise.all([
      postSetup(fields),
      postSetup({ ...fields, email: 'B@Example.COM' }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([303, 410]);
    // Either may win the race; the loser's account is not kept. Emails are stored in lower case.
    const created = first.status === 303 ? first : second;
    const email = first.status === 303 ? 'ops@example.com' : 'b@example.com';
    const cookie = created.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^platen_session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(created.headers.get('location')).toBe('/console/');
    const signedIn = await fetch(`${server.base}/console/api/session`, {
      headers: { cookie: cookie.split(';')[0] ?? '' },
    });
    expect((await signedIn.json()).user).toMatchObject({ email, operator: true });
    const used = await fetch(setupUrl);
    expect(used.status).toBe(410);
    // The used link's page says so plainly and leads to sign-in (no Markdown backticks).
    const usedPage = await used.text();
    expect(usedPage).not.toContain('`');
    expect(usedPage).toContain('href="/oauth/signin?next=%2Fconsole%2F"');
    expect((await postSetup(fields)).status).toBe(410);
    const users = (await admin(server.base, 'GET', '/users')).json.items;
    expect(users).toEqual([expect.objectContaining({ email, operator: true, workspaceIds: [] })]);
  });

  it('is spent when it expires', async () => {
    const token = await server.services.people.issueSetupLink(null, -1);
    expect((await fetch(`${server.base}/console/setup?token=${token}`)).status).toBe(410);
  });
});

describe('operators and the audit log', () => {
  it('creates operators through the operator API; a member needs a workspace', async () => {
    const operator = await admin(server.base, 'POST', '/users', {
      email: 'second-op@example.com',
      password: 'correct horse',
      workspaceIds: [],
      operator: true,
    });
    expect([operator.status, operator.json.operator]).toEqual([201, true]);
    const member = await admin(server.base, 'POST', '/users', {
      email: 'member@example.com',
      password: 'correct horse',
      workspaceIds: [],
    });
    expect([member.status, member.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('records key creation and revocation and webhook secret rotation, who and when, newest first', async () => {
    const ws = await admin(server.base, 'POST', '/workspaces', { name: 'audited', credits: 1 });
    const key = await admin(server.base, 'POST', `/workspaces/${ws.json.id}/api-keys`, {
      scopes: ['render:write'],
    });
    await admin(server.base, 'DELETE', `/api-keys/${key.json.id}`);
    const hook = await admin(server.base, 'POST', `/workspaces/${ws.json.id}/webhooks`, {
      url: 'http://127.0.0.1:9/hook',
      events: ['template.create'],
    });
    await admin(server.base, 'POST', `/webhooks/${hook.json.id}/rotate-secret`);
    const log = (await admin(server.base, 'GET', '/audit-log')).json;
    const operatorToken = { type: 'operator_token', id: null, label: 'operator token' };
    expect(
      log.items
        .slice(0, 5)
        .map((e: { action: string; target: string; actor: unknown }) => [e.action, e.target, e.actor]),
    ).toEqual([
      ['webhook.secret_rotated', hook.json.id, operatorToken],
      ['webhook.created', hook.json.id, operatorToken],
      ['api_key.revoked', key.json.id, operatorToken],
      ['api_key.created', key.json.id, operatorToken],
      ['workspace.created', ws.json.id, operatorToken],
    ]);
    expect(log.items[0]).toMatchObject({ workspaceId: ws.json.id, address: '127.0.0.1' });
    expect(log.items).toContainEqual(
      expect.objectContaining({
        action: 'user.created',
        actor: { type: 'setup_link', id: null, label: 'setup link' },
      }),
    );
    // The first start's workspace and key, by the service itself (the same millisecond: either order).
    const bootstrap = { type: 'system', id: null, label: 'bootstrap' };
    expect(
      log.items
        .slice(-2)
        .map((e: { action: string; actor: unknown }) => [e.action, e.actor])
        .sort(),
    ).toEqual([
      ['api_key.created', bootstrap],
      ['workspace.created', bootstrap],
    ]);
    expect(JSON.stringify(log)).not.toContain(key.json.key);
    const first = (await admin(server.base, 'GET', '/audit-log?limit=1')).json;
    const next = (await admin(server.base, 'GET', `/audit-log?limit=1&cursor=${first.nextCursor}`)).json;
    expect([first.items[0].id, next.items[0].id]).toEqual([log.items[0].id, log.items[1].id]);
    const bad = await admin(server.base, 'GET', '/audit-log?cursor=nonsense');
    expect([bad.status, bad.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
