/**
 * Webhooks on real databases with a real loopback receiver that verifies every signature with the
 * `standardwebhooks` library: byte-exact signing, the retry schedule, URL checks through the
 * operator API, the outbox written inside the template's transaction (embed sessions only), and the
 * dispatcher delivering, retrying after a 500 and a timeout, logging every attempt, giving up after
 * the window, and keeping a slow receiver from delaying another.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, testDatabase } from '../../test/harness/backends.ts';
import { admin, startTestServer, type TestServer } from '../../test/harness/server.ts';
import { AuditTrail } from '../audit/trail.ts';
import { type Principal, SCOPES } from '../auth/index.ts';
import type { Store } from '../store/index.ts';
import { TemplateService } from '../templates/index.ts';
import { afterFailure, DEFAULT_BACKOFF } from './backoff.ts';
import { WebhookDispatcher } from './dispatcher.ts';
import { webhookPolicy } from './policy.ts';
import { WebhookService } from './service.ts';
import { newSecret, sign, signedHeaders } from './signing.ts';
import { webhookEventSink } from './sink.ts';
import { overlapping, type Receiver, startReceiver } from './testing/receiver.ts';

const HOUR = 60 * 60 * 1000;

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('signing', () => {
  it('matches the standardwebhooks library byte for byte', () => {
    const bodies = ['{}', '{"a":"é ✓ 🎨","n":1}', '', JSON.stringify({ x: 'a'.repeat(5000) })];
    for (const body of bodies) {
      const secret = newSecret();
      const id = `msg_${randomBytes(8).toString('hex')}`;
      const timestamp = 1_700_000_000 + Math.floor(Math.random() * 1e6);
      expect(sign(secret, id, timestamp, body)).toBe(
        new Webhook(secret).sign(id, new Date(timestamp * 1000), body),
      );
    }
  });

  it('makes `whsec_` secrets of 32 random bytes that the library accepts', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
    const body = '{"type":"template.create"}';
    const headers = signedHeaders(secret, 'msg_1', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual({ type: 'template.create' });
    expect(() => new Webhook(newSecret()).verify(body, { ...headers })).toThrow();
  });
});

describe('retry schedule', () => {
  /** The times of every attempt until the schedule gives up, with `random` as the jitter. */
  function schedule(random: () => number): number[] {
    const created = new Date('2030-01-01T00:00:00Z');
    const times = [created.getTime()];
    for (let attempt = 1; ; attempt++) {
      const now = new Date(times[times.length - 1] ?? 0);
      const next = afterFailure(attempt, created, now, random);
      if (next.kind === 'failed') return times.map((t) => t - created.getTime());
      times.push(next.at.getTime());
    }
  }

  it.each([
    ['no', () => 0],
    ['half', () => 0.5],
    ['full', () => 1],
    ['random', Math.random],
  ])('retries for at least 24 hours (%s jitter) before giving up', (_name, random) => {
    const times = schedule(random);
    expect(times[times.length - 1]).toBeGreaterThanOrEqual(24 * HOUR);
    // Never more than one ceiling past the window: the last retry is the first one after it.
    expect(times[times.length - 2]).toBeLessThan(24 * HOUR);
  });

  it('starts within seconds, grows exponentially and is capped at hours', () => {
    const times = schedule(() => 1);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    expect(gaps.slice(0, 4)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(Math.max(...gaps)).toBe(DEFAULT_BACKOFF.capMs);
    expect(DEFAULT_BACKOFF.capMs).toBeGreaterThanOrEqual(HOUR);
    expect(gaps.length).toBeLessThan(30);
    // Full jitter: any delay from the floor up to the ceiling.
    const created = new Date();
    const early = afterFailure(1, created, created, () => 0);
    expect(early.kind === 'retry' && early.at.getTime() - created.getTime()).toBe(DEFAULT_BACKOFF.floorMs);
  });

  it('gives up on the first failure after the window', () => {
    const created = new Date('2030-01-01T00:00:00Z');
    expect(afterFailure(40, created, new Date(created.getTime() + 24 * HOUR)).kind).toBe('failed');
    expect(afterFailure(40, created, new Date(created.getTime() + 24 * HOUR - 1)).kind).toBe('retry');
  });
});

describe('operator API', () => {
  let open: TestServer;
  let strict: TestServer;
  let workspaceId = '';
  let strictWorkspace = '';

  beforeAll(async () => {
    open = await startTestServer('sqlite');
    strict = await startTestServer('sqlite', { PLATEN_ALLOW_PRIVATE_URLS: 'false' });
    workspaceId = (await admin(open.base, 'POST', '/workspaces', { name: 'w' })).json.id;
    strictWorkspace = (await admin(strict.base, 'POST', '/workspaces', { name: 'w' })).json.id;
  });
  afterAll(async () => {
    await open.close();
    await strict.close();
  });

  it.each([
    ['loopback', 'https://127.0.0.1/hook'],
    ['loopback IPv6', 'https://[::1]/hook'],
    ['private', 'https://10.1.2.3/hook'],
    ['link-local metadata', 'https://169.254.169.254/latest'],
    ['CGNAT', 'https://100.64.0.1/'],
    ['plain http', 'http://93.184.216.34/hook'],
    ['another protocol', 'ftp://93.184.216.34/hook'],
    ['unresolvable', 'https://nope.invalid/hook'],
    ['not a URL', 'hook'],
  ])('refuses a %s target with 400 VALIDATION_FAILED', async (_name, url) => {
    const res = await admin(strict.base, 'POST', `/workspaces/${strictWorkspace}/webhooks`, {
      url,
      events: ['template.create'],
    });
    expect([res.status, res.json.error.code, res.json.error.details?.[0]?.path]).toEqual([
      400,
      'VALIDATION_FAILED',
      'url',
    ]);
  });

  it('admits http and loopback only with PLATEN_ALLOW_PRIVATE_URLS, and still wants a name that resolves', async () => {
    const ok = await admin(open.base, 'POST', `/workspaces/${workspaceId}/webhooks`, {
      url: 'http://127.0.0.1:9/hook',
      events: ['template.create'],
    });
    expect(ok.status).toBe(201);
    const unresolvable = await admin(open.base, 'POST', `/workspaces/${workspaceId}/webhooks`, {
      url: 'http://nope.invalid/hook',
      events: ['template.create'],
    });
    expect([unresolvable.status, unresolvable.json.error.details[0].path]).toEqual([400, 'url']);
  });

  it.each([
    ['no events', []],
    ['an unknown event', ['template.delete']],
  ])('refuses %s', async (_name, events) => {
    const res = await admin(open.base, 'POST', `/workspaces/${workspaceId}/webhooks`, {
      url: 'http://127.0.0.1:9/',
      events,
    });
    expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('creates (secret once), lists, reads, changes, rotates, logs and deletes', async () => {
    const created = await admin(open.base, 'POST', `/workspaces/${workspaceId}/webhooks`, {
      url: 'http://127.0.0.1:9/a',
      events: ['template.create', 'template.update'],
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      url: 'http://127.0.0.1:9/a',
      events: ['template.create', 'template.update'],
    });
    expect(created.json.id).toMatch(/^whk_/);
    expect(created.json.secret).toMatch(/^whsec_/);
    const id = created.json.id;

    const got = await admin(open.base, 'GET', `/webhooks/${id}`);
    expect(got.status).toBe(200);
    expect(got.json.secret).toBeUndefined();
    const listed = await admin(open.base, 'GET', `/workspaces/${workspaceId}/webhooks`);
    expect(listed.json.items.map((w: { id: string }) => w.id)).toContain(id);
    expect(listed.json.items.every((w: object) => !('secret' in w))).toBe(true);

    const patched = await admin(open.base, 'PATCH', `/webhooks/${id}`, { events: ['template.update'] });
    expect([patched.status, patched.json.events]).toEqual([200, ['template.update']]);

    const rotated = await admin(open.base, 'POST', `/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(created.json.secret);

    expect(await admin(open.base, 'GET', `/webhooks/${id}/deliveries`)).toMatchObject({
      status: 200,
      json: { items: [] },
    });
    expect((await admin(open.base, 'DELETE', `/webhooks/${id}`)).status).toBe(204);
    for (const [method, path] of [
      ['GET', `/webhooks/${id}`],
      ['DELETE', `/webhooks/${id}`],
      ['GET', `/webhooks/${id}/deliveries`],
      ['POST', `/webhooks/${id}/rotate-secret`],
      ['GET', '/webhooks/whk_malformed'],
      ['GET', '/workspaces/ws_0000000000000000000000/webhooks'],
    ] as const) {
      const res = await admin(open.base, method, path);
      expect([path, res.status, res.json.error.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
  });
});

const session = (workspaceId: string, userId = 'u1'): Principal => ({
  workspaceId,
  scopes: new Set(SCOPES),
  actor: { type: 'embed_session', embedId: 'emb_x', userId, isolated: true, publishedOnly: false },
  address: null,
});
const apiKey = (workspaceId: string): Principal => ({
  workspaceId,
  scopes: new Set(SCOPES),
  actor: { type: 'api_key', id: 'key_x', prefix: 'plt_x…' },
  address: null,
});
/** The operator token's principal: webhooks are managed on the operator API. */
const operator: Principal = {
  workspaceId: '',
  scopes: new Set(),
  actor: { type: 'operator_token' },
  address: null,
};

describe.each(backends)('outbox and dispatcher ($name)', ({ name, skip }) => {
  let database: TestDatabase;
  let store: Store;
  let templates: TemplateService;
  let webhooks: WebhookService;
  let receiver: Receiver;
  const dispatchers: WebhookDispatcher[] = [];
  const silent = pino({ level: 'silent' });

  const dispatcher = (options: { timeoutMs?: number; windowMs?: number } = {}) => {
    const d = new WebhookDispatcher({
      store,
      logger: silent,
      policy: webhookPolicy(true, options.timeoutMs ?? 2_000),
      singleInstance: name === 'sqlite',
      pollMs: 50,
      backoff: { baseMs: 100, capMs: 400, floorMs: 50, windowMs: options.windowMs ?? 24 * HOUR },
    });
    dispatchers.push(d);
    return d;
  };

  async function hook(path: string, events = ['template.create', 'template.update']) {
    const workspaceId = (await store.workspaces.create({ name: 'w', credits: 0, actor: 'test' })).id;
    const created = await webhooks.create(operator, workspaceId, { url: receiver.url(path), events });
    receiver.secrets.set(path, created.secret);
    return { workspaceId, webhookId: created.id };
  }

  const outbox = (webhookId: string) =>
    store.handle.db.selectFrom('webhook_outbox').selectAll().where('webhook_id', '=', webhookId).execute();

  beforeAll(async () => {
    if (skip) return;
    database = testDatabase(name);
    store = await database.open();
    templates = new TemplateService(store, {
      baseUrl: 'http://platen.test',
      events: webhookEventSink(store),
    });
    webhooks = new WebhookService(store, new AuditTrail(store), { policy: webhookPolicy(true) });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    for (const d of dispatchers.splice(0)) await d.stop();
    if (receiver) receiver.behave = () => ({ status: 200 });
  });
  afterAll(async () => {
    if (skip) return;
    await receiver.close();
    await store.close();
    await database.destroy();
  });

  it.skipIf(skip)(
    'writes one event per subscribed webhook in the template transaction, for embed sessions only',
    async () => {
      const { workspaceId, webhookId } = await hook('/tx');
      const onlyUpdates = await webhooks.create(operator, workspaceId, {
        url: receiver.url('/tx-updates'),
        events: ['template.update'],
      });

      await templates.create(apiKey(workspaceId), { name: 'by key', width: 10, height: 10 });
      expect(await outbox(webhookId)).toHaveLength(0);

      const created = await templates.create(session(workspaceId), {
        name: 'by session',
        width: 10,
        height: 10,
      });
      const rows = await outbox(webhookId);
      expect(rows.map((r) => [r.event_type, r.status, r.id.startsWith('msg_')])).toEqual([
        ['template.create', 'pending', true],
      ]);
      const body = JSON.parse(rows[0]?.payload ?? '{}');
      expect(body).toEqual({
        type: 'template.create',
        timestamp: expect.any(String),
        data: {
          template: {
            id: created.id,
            name: 'by session',
            width: 10,
            height: 10,
            pageCount: 1,
            revision: 1,
            shared: false,
            ownerUserId: 'u1',
            thumbnailUrl: null,
            createdAt: created.createdAt,
            updatedAt: created.updatedAt,
          },
          embedId: 'emb_x',
          userId: 'u1',
        },
      });
      expect(await outbox(onlyUpdates.id)).toHaveLength(0);

      await templates.save(session(workspaceId), created.id, { document: created.document });
      await templates.save(apiKey(workspaceId), created.id, { document: created.document });
      expect((await outbox(webhookId)).map((r) => r.event_type)).toEqual([
        'template.create',
        'template.update',
      ]);
      expect((await outbox(onlyUpdates.id)).map((r) => JSON.parse(r.payload).data.template.revision)).toEqual(
        [2],
      );
      // A save refused by its precondition writes nothing.
      await expect(
        templates.save(session(workspaceId), created.id, { document: created.document, ifMatch: '"1"' }),
      ).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
      expect(await outbox(webhookId)).toHaveLength(2);
    },
  );

  it.skipIf(skip)('rolls the event back with the template when the transaction fails', async () => {
    const { workspaceId, webhookId } = await hook('/rollback');
    const sink = webhookEventSink(store);
    const failing = new TemplateService(store, {
      baseUrl: 'http://platen.test',
      events: async (trx, event) => {
        await sink(trx, event);
        expect(
          (await trx.selectFrom('webhook_outbox').selectAll().where('webhook_id', '=', webhookId).execute())
            .length,
        ).toBe(1);
        throw new Error('boom after the outbox write');
      },
    });
    await expect(
      failing.create(session(workspaceId), { name: 'gone', width: 10, height: 10 }),
    ).rejects.toThrow('boom');
    expect(await outbox(webhookId)).toHaveLength(0);
    const listed = await templates.list(apiKey(workspaceId), { limit: 10 });
    expect(listed.items).toHaveLength(0);
  });

  it.skipIf(skip)(
    'delivers signed events, retrying after a 500 and after a timeout, logging every attempt',
    async () => {
      const { workspaceId, webhookId } = await hook('/flaky');
      receiver.behave = (r) => (r.seen === 0 ? { status: 500 } : r.seen === 1 ? 'hang' : { status: 204 });
      const d = dispatcher({ timeoutMs: 300 });
      await d.start();
      const created = await templates.create(session(workspaceId), { name: 't', width: 10, height: 10 });
      await receiver.waitFor(() => receiver.delivered('/flaky').size === 1, 15_000);

      const tries = receiver.requests.filter((r) => r.path === '/flaky');
      expect(tries.map((r) => r.verified)).toEqual([true, true, true]);
      expect(new Set(tries.map((r) => r.messageId)).size).toBe(1);
      expect(new Set(tries.map((r) => r.body)).size).toBe(1);
      expect(tries[0]?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(tries[0]?.body ?? '').data.template.id).toBe(created.id);

      await until(async () => (await outbox(webhookId))[0]?.status === 'delivered');
      const log = await webhooks.deliveries(operator, webhookId, 50);
      expect(log.map((e) => [e.attempt, e.statusCode, e.ok])).toEqual([
        [3, 204, true],
        [2, null, false],
        [1, 500, false],
      ]);
      expect(log[1]?.error).toMatch(/^timeout/);
      expect(log[2]?.error).toBe('HTTP 500');
      expect(log.every((e) => e.messageId === tries[0]?.messageId && e.eventType === 'template.create')).toBe(
        true,
      );
      expect(log[1]?.latencyMs).toBeGreaterThanOrEqual(250);
      const [row] = await outbox(webhookId);
      expect([row?.status, Number(row?.attempts), row?.locked_until]).toEqual(['delivered', 3, null]);
    },
  );

  it.skipIf(skip)('does not let a slow receiver delay another webhook', async () => {
    const slow = await hook('/slow');
    const fast = await hook('/fast');
    receiver.behave = (r) => (r.path === '/slow' ? { status: 200, delayMs: 3_000 } : { status: 200 });
    const d = dispatcher({ timeoutMs: 5_000 });
    await d.start();
    // A backlog for the slow receiver first, then one event for the fast one.
    for (let i = 0; i < 12; i++)
      await templates.create(session(slow.workspaceId), { name: `s${i}`, width: 10, height: 10 });
    const startedAt = Date.now();
    await templates.create(session(fast.workspaceId), { name: 'f', width: 10, height: 10 });
    await receiver.waitFor(() => receiver.delivered('/fast').size === 1, 10_000);
    expect(Date.now() - startedAt).toBeLessThan(1_500);
    // The slow one is still working through its backlog, at most two at a time.
    expect(receiver.delivered('/slow').size).toBeLessThan(12);
    const slowInFlight = receiver.requests.filter((r) => r.path === '/slow' && r.endedAt === null);
    expect(slowInFlight.length).toBeLessThanOrEqual(2);
    expect(overlapping(receiver.requests)).toEqual([]);
  });

  it.skipIf(skip)('gives up after the retry window and records the failure', async () => {
    const { workspaceId, webhookId } = await hook('/dead');
    receiver.behave = () => ({ status: 503 });
    const d = dispatcher({ windowMs: 400 });
    await d.start();
    await templates.create(session(workspaceId), { name: 't', width: 10, height: 10 });
    await until(async () => (await outbox(webhookId))[0]?.status === 'failed');
    const rows = await outbox(webhookId);
    const log = await webhooks.deliveries(operator, webhookId, 100);
    expect(log.length).toBeGreaterThanOrEqual(2);
    expect(log.every((e) => !e.ok && e.statusCode === 503)).toBe(true);
    expect(Number(rows[0]?.attempts)).toBe(log.length);
  });

  it.skipIf(skip)(
    'drops what a deleted webhook had not delivered, and signs retries with a rotated secret',
    async () => {
      const gone = await hook('/gone');
      const rotating = await hook('/rotating');
      await templates.create(session(gone.workspaceId), { name: 't', width: 10, height: 10 });
      await templates.create(session(rotating.workspaceId), { name: 't', width: 10, height: 10 });
      await webhooks.remove(operator, gone.webhookId);
      expect((await outbox(gone.webhookId)).map((r) => r.status)).toEqual(['cancelled']);
      const rotated = await webhooks.rotateSecret(operator, rotating.webhookId);
      receiver.secrets.set('/rotating', rotated.secret);
      const d = dispatcher();
      await d.start();
      await receiver.waitFor(() => receiver.delivered('/rotating').size === 1, 10_000);
      expect(receiver.requests.filter((r) => r.path === '/rotating').every((r) => r.verified)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(receiver.requests.filter((r) => r.path === '/gone')).toEqual([]);
    },
  );

  it.skipIf(skip)('refuses at delivery a target that is not allowed any more', async () => {
    const { workspaceId, webhookId } = await hook('/guarded');
    const strict = new WebhookDispatcher({
      store,
      logger: silent,
      policy: webhookPolicy(false, 1_000),
      singleInstance: name === 'sqlite',
      pollMs: 50,
    });
    dispatchers.push(strict);
    await strict.start();
    await templates.create(session(workspaceId), { name: 't', width: 10, height: 10 });
    await until(async () => (await webhooks.deliveries(operator, webhookId, 10)).length > 0);
    const log = await webhooks.deliveries(operator, webhookId, 10);
    expect(log[0]?.error).toMatch(/^protocol/);
    expect(receiver.requests.filter((r) => r.path === '/guarded')).toEqual([]);
  });

  it.skipIf(skip)(
    'refuses at delivery a name that resolves to a private address since it was set',
    async () => {
      // The same name, public when the operator set it, private (the receiver) when delivered to.
      const strict = {
        ...webhookPolicy(false, 1_000),
        allowedProtocols: ['https:', 'http:'] as ('https:' | 'http:')[],
      };
      const workspaceId = (await store.workspaces.create({ name: 'w', credits: 0, actor: 'test' })).id;
      const url = receiver.url('/rebound').replace('127.0.0.1', 'hook.example');
      const setter = new WebhookService(store, new AuditTrail(store), {
        policy: { ...strict, resolve: async () => ['93.184.216.34'] },
      });
      const { id: webhookId } = await setter.create(operator, workspaceId, {
        url,
        events: ['template.create'],
      });
      const d = new WebhookDispatcher({
        store,
        logger: silent,
        policy: { ...strict, resolve: async () => ['127.0.0.1'] },
        singleInstance: name === 'sqlite',
        pollMs: 50,
      });
      dispatchers.push(d);
      const connections = receiver.connections;
      await d.start();
      await templates.create(session(workspaceId), { name: 't', width: 10, height: 10 });
      await until(async () => (await webhooks.deliveries(operator, webhookId, 10)).length > 0);
      expect((await webhooks.deliveries(operator, webhookId, 10))[0]?.error).toMatch(/^private-address/);
      expect(receiver.connections).toBe(connections);
    },
  );
});
