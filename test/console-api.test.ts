/**
 * The console's own API (`/console/api`) over real HTTP: every route refuses no session (401) and
 * a change without the session's CSRF header (401); a member reaches only their workspaces, and an
 * id of another workspace's key, webhook or embed answers 404 as an unknown one; keys created and
 * revoked there are audited as the person; the webhook delivery log and redelivery; embeds and the
 * console's hidden studio embed; and the render history and usage routes with a person's session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../src/webhooks/testing/receiver.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { type ConsolePerson, consolePerson } from './harness/console.ts';
import {
  admin,
  bearer,
  http,
  startTestServer,
  type TestServer,
  type WorkspaceWithKey,
  workspaceWithKey,
} from './harness/server.ts';
import { eventually } from './harness/webhooks.ts';

let server: TestServer;
let receiver: Receiver;
let mine: WorkspaceWithKey;
let theirs: WorkspaceWithKey;
let member: ConsolePerson;
let stranger: ConsolePerson;
let operator: ConsolePerson;
/** Ids of resources in `theirs`, by the route parameter that names them. */
const theirIds: Record<string, string> = {};

const consoleRoutes = () => server.routes.filter((route) => route.auth === 'console');
const ws = (workspaceId: string) => `/console/api/workspaces/${workspaceId}`;

function fill(url: string, workspaceId: string, ids: Record<string, string>): string {
  return url
    .replace(':workspaceId', workspaceId)
    .replace(/:(\w+)/g, (_, name: string) => ids[name] ?? `missing_${name}`);
}

const sampleBodies: Record<string, unknown> = {
  'POST /api-keys': { name: 'k', scopes: ['template:read'] },
  'POST /webhooks': { url: 'http://127.0.0.1:9/hook', events: ['template.create'] },
  'PATCH /webhooks/:webhookId': { events: ['template.update'] },
  'POST /embeds': { brandTitle: 'e' },
  'PATCH /embeds/:embedId': { brandTitle: 'x' },
};

function bodyFor(method: string, url: string): unknown {
  const tail = url.replace('/console/api/workspaces/:workspaceId', '');
  return sampleBodies[`${method} ${tail}`];
}

async function call(
  method: string,
  url: string,
  headers: Record<string, string>,
  workspaceId: string,
  ids: Record<string, string>,
) {
  return http(server.base, method, fill(url, workspaceId, ids), { body: bodyFor(method, url), headers });
}

beforeAll(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  mine = await workspaceWithKey(server.base, { name: 'mine', credits: 20 });
  theirs = await workspaceWithKey(server.base, { name: 'theirs' });
  member = await consolePerson(server.base, { workspaceIds: [mine.workspaceId] });
  stranger = await consolePerson(server.base, { workspaceIds: [theirs.workspaceId] });
  operator = await consolePerson(server.base, { operator: true });
  const hook = await admin(server.base, 'POST', `/workspaces/${theirs.workspaceId}/webhooks`, {
    url: 'http://127.0.0.1:9/hook',
    events: ['template.create'],
  });
  const embed = await http(server.base, 'POST', `${ws(theirs.workspaceId)}/embeds`, {
    body: { brandTitle: 'theirs' },
    headers: stranger.change(),
  });
  theirIds.keyId = theirs.keyId;
  theirIds.webhookId = hook.json.id;
  theirIds.embedId = embed.json.id;
  theirIds.messageId = 'msg_unknown';
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

describe('the console API', () => {
  it('has routes, each for a signed-in person only: 401 UNAUTHORIZED without a session', async () => {
    expect(consoleRoutes().length).toBeGreaterThanOrEqual(15);
    for (const route of consoleRoutes()) {
      const res = await call(route.method, route.url, {}, mine.workspaceId, theirIds);
      expect([route.method, route.url, res.status, res.json?.error?.code]).toEqual([
        route.method,
        route.url,
        401,
        'UNAUTHORIZED',
      ]);
    }
  });

  it('refuses every change without the CSRF header, or with a forged or another session’s (401)', async () => {
    const changes = consoleRoutes().filter((route) => route.method !== 'GET' && route.method !== 'HEAD');
    expect(changes.length).toBeGreaterThanOrEqual(10);
    for (const route of changes) {
      for (const headers of <Record<string, string>[]>[
        { cookie: member.cookie },
        { cookie: member.cookie, 'x-platen-csrf': 'forged' },
        { cookie: member.cookie, 'x-platen-csrf': stranger.csrf },
      ]) {
        const res = await call(route.method, route.url, headers, mine.workspaceId, {});
        expect([route.method, route.url, res.status]).toEqual([route.method, route.url, 401]);
      }
    }
    const keys = await http(server.base, 'GET', `${ws(mine.workspaceId)}/api-keys`, {
      headers: member.change(),
    });
    expect(keys.json.items).toHaveLength(1);
  });

  it('answers 404 to a member in a workspace not theirs, and to ids of another workspace in theirs', async () => {
    for (const route of consoleRoutes().filter((r) => r.url.includes(':workspaceId'))) {
      const elsewhere = await call(route.method, route.url, member.change(), theirs.workspaceId, theirIds);
      expect([route.method, route.url, elsewhere.status, elsewhere.json?.error?.code]).toEqual([
        route.method,
        route.url,
        404,
        'NOT_FOUND',
      ]);
      if (!/:(keyId|webhookId|embedId)/.test(route.url)) continue;
      const smuggled = await call(route.method, route.url, member.change(), mine.workspaceId, theirIds);
      expect([route.method, route.url, smuggled.status, smuggled.json?.error?.code]).toEqual([
        route.method,
        route.url,
        404,
        'NOT_FOUND',
      ]);
    }
    // Nothing of theirs changed: their key still works, their webhook and embed are still there.
    expect((await http(server.base, 'GET', '/v1/templates', { headers: bearer(theirs.key) })).status).toBe(
      200,
    );
    const hooks = await http(server.base, 'GET', `${ws(theirs.workspaceId)}/webhooks`, {
      headers: stranger.change(),
    });
    expect(hooks.json.items).toEqual([
      expect.objectContaining({ id: theirIds.webhookId, events: ['template.create'] }),
    ]);
    const embeds = await http(server.base, 'GET', `${ws(theirs.workspaceId)}/embeds`, {
      headers: stranger.change(),
    });
    expect(embeds.json.items.map((e: { id: string }) => e.id)).toEqual([theirIds.embedId]);
  });

  it('lets an operator into any workspace, and tells who is signed in', async () => {
    const res = await http(server.base, 'GET', ws(theirs.workspaceId), { headers: operator.change() });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: theirs.workspaceId, name: 'theirs' });
    const session = await http(server.base, 'GET', '/console/api/session', { headers: member.change() });
    expect(session.json).toMatchObject({
      user: { id: member.userId, operator: false },
      workspaces: [expect.objectContaining({ id: mine.workspaceId })],
      csrfToken: member.csrf,
    });
  });

  it('creates and revokes keys, audited as the person who did it', async () => {
    const created = await http(server.base, 'POST', `${ws(mine.workspaceId)}/api-keys`, {
      body: { name: 'from the console', scopes: ['template:read'] },
      headers: member.change(),
    });
    expect(created.status).toBe(201);
    expect(created.json.key).toMatch(/^plt_/);
    const listed = await http(server.base, 'GET', '/v1/templates', { headers: bearer(created.json.key) });
    expect(listed.status).toBe(200);
    const keys = await http(server.base, 'GET', `${ws(mine.workspaceId)}/api-keys`, {
      headers: member.change(),
    });
    const shown = keys.json.items.find((k: { id: string }) => k.id === created.json.id);
    expect(shown).toMatchObject({ name: 'from the console', scopes: ['template:read'] });
    expect(shown.key).toBeUndefined();
    expect(shown.lastUsedAt).toEqual(expect.any(String));

    const revoked = await http(server.base, 'DELETE', `${ws(mine.workspaceId)}/api-keys/${created.json.id}`, {
      headers: member.change(),
    });
    expect(revoked.status).toBe(204);
    const refused = await http(server.base, 'GET', '/v1/templates', { headers: bearer(created.json.key) });
    expect(refused.json.error.code).toBe('INVALID_API_KEY');

    const log = await admin(server.base, 'GET', '/audit-log');
    const about = log.json.items.filter((entry: { target: string }) => entry.target === created.json.id);
    const person = { type: 'person', id: member.userId, label: member.email };
    expect(about.map((e: { action: string; actor: unknown }) => [e.action, e.actor])).toEqual([
      ['api_key.revoked', person],
      ['api_key.created', person],
    ]);
    expect(about[0]).toMatchObject({ workspaceId: mine.workspaceId, address: '127.0.0.1' });
  });

  it('shows the webhook delivery log, and redelivers a message under its own webhook-id', async () => {
    const created = await http(server.base, 'POST', `${ws(mine.workspaceId)}/webhooks`, {
      body: { url: receiver.url('/console'), events: ['template.create'] },
      headers: member.change(),
    });
    expect(created.status).toBe(201);
    expect(created.json.secret).toMatch(/^whsec_/);
    receiver.secrets.set('/console', created.json.secret);
    const hookId = created.json.id as string;
    // Template events come from the studio: the console's own studio session makes one.
    const studio = await http(server.base, 'POST', `${ws(mine.workspaceId)}/studio-session`, {
      headers: member.change(),
    });
    const made = await http(server.base, 'POST', `/v1/embed/${studio.json.embedId}/templates`, {
      body: { name: 'hooked', document: simpleDocument() },
      headers: bearer(studio.json.token),
    });
    expect(made.status).toBe(201);
    const deliveries = () =>
      http(server.base, 'GET', `${ws(mine.workspaceId)}/webhooks/${hookId}/deliveries`, {
        headers: member.change(),
      });
    await eventually(async () => (await deliveries()).json.items.length === 1, 10_000);
    const [first] = (await deliveries()).json.items;
    expect(first).toMatchObject({ eventType: 'template.create', statusCode: 200, ok: true, attempt: 1 });
    expect(first.latencyMs).toEqual(expect.any(Number));

    const redeliver = (messageId: string) =>
      http(
        server.base,
        'POST',
        `${ws(mine.workspaceId)}/webhooks/${hookId}/messages/${messageId}/redeliver`,
        {
          headers: member.change(),
        },
      );
    expect((await redeliver(first.messageId)).status).toBe(202);
    // While it is queued again, a second redelivery is a conflict, not a second copy.
    const again = await redeliver(first.messageId);
    expect([202, 409]).toContain(again.status);
    if (again.status === 409) expect(again.json.error.code).toBe('CONFLICT');
    expect((await redeliver('msg_unknown')).json.error.code).toBe('NOT_FOUND');
    await eventually(() => receiver.requests.filter((r) => r.path === '/console').length >= 2, 10_000);
    const copies = receiver.requests.filter((r) => r.path === '/console');
    expect(new Set(copies.map((r) => r.messageId))).toEqual(new Set([first.messageId]));
    expect(copies.every((r) => r.verified)).toBe(true);

    const rotated = await http(
      server.base,
      'POST',
      `${ws(mine.workspaceId)}/webhooks/${hookId}/rotate-secret`,
      {
        headers: member.change(),
      },
    );
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(created.json.secret);
    const log = await admin(server.base, 'GET', '/audit-log');
    expect(log.json.items).toContainEqual(
      expect.objectContaining({
        action: 'webhook.secret_rotated',
        actor: { type: 'person', id: member.userId, label: member.email },
        workspaceId: mine.workspaceId,
        target: hookId,
      }),
    );
  });

  it('manages embeds, and opens the studio on a hidden console embed nobody can mint on without a key', async () => {
    const created = await http(server.base, 'POST', `${ws(mine.workspaceId)}/embeds`, {
      body: { brandTitle: 'customer editor' },
      headers: member.change(),
    });
    expect(created.status).toBe(201);
    const patched = await http(server.base, 'PATCH', `${ws(mine.workspaceId)}/embeds/${created.json.id}`, {
      body: { brandTitle: 'Acme studio', downloadsEnabled: false },
      headers: member.change(),
    });
    expect(patched.json).toMatchObject({ brandTitle: 'Acme studio', downloadsEnabled: false });

    const studio = await http(server.base, 'POST', `${ws(mine.workspaceId)}/studio-session`, {
      headers: member.change(),
    });
    expect(studio.status).toBe(201);
    expect(studio.json).toMatchObject({ token: expect.any(String), embedId: expect.any(String) });
    const templates = await http(server.base, 'GET', `/v1/embed/${studio.json.embedId}/templates`, {
      headers: bearer(studio.json.token),
    });
    expect(templates.status).toBe(200);
    const listed = await http(server.base, 'GET', `${ws(mine.workspaceId)}/embeds`, {
      headers: member.change(),
    });
    expect(listed.json.items.map((e: { id: string }) => e.id)).toEqual([created.json.id]);
    const mint = await http(server.base, 'POST', `/v1/embed/${studio.json.embedId}/session`, { body: {} });
    expect(mint.json.error.code).toBe('INVALID_API_KEY');

    const removed = await http(server.base, 'DELETE', `${ws(mine.workspaceId)}/embeds/${created.json.id}`, {
      headers: member.change(),
    });
    expect(removed.status).toBe(204);
  });
});

describe('render history and usage for a person', () => {
  it('lists renders newest first with their source, and counts usage per day by format and source', async () => {
    const template = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 'history', document: simpleDocument() },
      headers: bearer(mine.key),
    });
    const render = (headers: Record<string, string>, name: string, format: string) =>
      http(server.base, 'POST', `/v1/templates/${template.json.id}/render`, {
        body: { format, modifications: { name } },
        headers,
      });
    expect((await render(bearer(mine.key), 'by key', 'png')).status).toBe(200);
    expect((await render(member.v1(mine.workspaceId), 'by person', 'jpeg')).status).toBe(200);
    expect((await render(member.v1(mine.workspaceId), 'by person', 'jpeg')).status).toBe(200);

    const recent = await http(server.base, 'GET', '/v1/renders?limit=1', {
      headers: member.v1(mine.workspaceId),
    });
    expect(recent.status).toBe(200);
    expect(recent.json.items).toEqual([
      expect.objectContaining({ format: 'jpeg', source: 'console', status: 'done', credits: 1 }),
    ]);
    expect(recent.json.items[0].url).toMatch(/^http/);
    const older = await http(server.base, 'GET', `/v1/renders?limit=5&cursor=${recent.json.nextCursor}`, {
      headers: member.v1(mine.workspaceId),
    });
    expect(older.json.items).toEqual([expect.objectContaining({ format: 'png', source: 'api' })]);
    expect(older.json.nextCursor).toBeNull();

    const usage = await http(server.base, 'GET', '/v1/usage?days=7', {
      headers: member.v1(mine.workspaceId),
    });
    expect(usage.status).toBe(200);
    const rows = usage.json.days.map(
      (d: { format: string; source: string; renders: number; credits: number }) => [
        d.format,
        d.source,
        d.renders,
        d.credits,
      ],
    );
    expect(rows.sort()).toEqual([
      ['jpeg', 'console', 1, 1],
      ['png', 'api', 1, 1],
    ]);
    // The other workspace sees none of it.
    const theirsRecent = await http(server.base, 'GET', '/v1/renders', { headers: bearer(theirs.key) });
    expect(theirsRecent.json.items).toEqual([]);
  });

  it('answers a bad cursor or day count 400 VALIDATION_FAILED', async () => {
    for (const path of [
      '/v1/renders?cursor=not-a-cursor',
      '/v1/renders?limit=0',
      '/v1/renders?limit=1000',
      '/v1/usage?days=0',
      '/v1/usage?days=100000',
      '/v1/usage?days=abc',
      '/v1/usage?extra=1',
    ]) {
      const res = await http(server.base, 'GET', path, { headers: member.v1(mine.workspaceId) });
      expect([path, res.status, res.json?.error?.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
    }
  });
});
