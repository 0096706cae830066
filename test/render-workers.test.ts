/**
 * Render workers on a real queue: two API instances (PLATEN_ROLE=api, which only accept and queue)
 * and two render workers (`platen worker` and PLATEN_ROLE=worker) on one PostgreSQL and one Redis
 * (BullMQ), behind a load balancer. A worker is SIGKILLed while it renders a row of a batch: every
 * row still ends done, each render is recorded once with one file, the ledger charges each row
 * exactly once, and one `batch.completed` arrives. Also: a render whose queue entry was lost is
 * entered again by the sweep.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BullRenderQueue } from '../src/renders/index.ts';
import { startReceiver } from '../src/webhooks/testing/receiver.ts';
import { PNG_1X1, simpleDocument } from './fixtures/samples.ts';
import { pgUrl, redisUrl } from './harness/backends.ts';
import { type Balancer, startBalancer } from './harness/balancer.ts';
import type { ServiceProcess } from './harness/process.ts';
import {
  ADMIN_TOKEN,
  bearer,
  http,
  startOrigin,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';
import { eventually, fleet } from './harness/webhooks.ts';

const skip = !pgUrl
  ? 'PLATEN_TEST_DATABASE_URL not set'
  : !redisUrl
    ? 'PLATEN_TEST_REDIS_URL not set'
    : false;
const admin = bearer(ADMIN_TOKEN);
const ROWS = 16;

/** A document whose image (element `photo`) each row points at a URL of its own. */
function photoDocument() {
  const document = simpleDocument();
  document.pages[0]?.elements.push({
    id: 'img',
    type: 'image',
    name: 'photo',
    x: 0,
    y: 0,
    width: 40,
    height: 40,
    src: 'https://example.com/none.png',
  } as never);
  return document;
}

const instanceIdOf = (service: ServiceProcess) =>
  /"instanceId":"(ins_[A-Za-z0-9]+)"/.exec(service.output())?.[1];

describe.skipIf(skip)(`render workers on BullMQ${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const services = fleet();
  let balancer: Balancer;
  let database = '';
  let workers: ServiceProcess[] = [];
  let origin: { base: string; close(): Promise<void> };

  beforeAll(async () => {
    // Each image answers after 600 ms, so a row takes that long to render and a kill finds one mid-way.
    origin = await startOrigin((_request, response) => {
      setTimeout(() => response.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1X1), 600);
    });
    balancer = await startBalancer();
    database = await services.pgDatabase(pgUrl ?? '');
    const env = {
      DATABASE_URL: database,
      PLATEN_REDIS_URL: redisUrl ?? '',
      PLATEN_BASE_URL: balancer.base,
      PLATEN_BOOTSTRAP: 'false',
      PLATEN_RENDER_WORKERS: '1',
      PLATEN_DATA_DIR: services.tempDir('workers-files'),
    };
    const apis = await Promise.all([0, 1].map(() => services.start({ ...env, PLATEN_ROLE: 'api' })));
    balancer.targets.push(...apis.map((api) => api.base));
    workers = await Promise.all([
      services.start({ ...env, PLATEN_LOG_LEVEL: 'info' }, ['node', 'bin/platen.js', 'worker']),
      services.start({ ...env, PLATEN_LOG_LEVEL: 'info', PLATEN_ROLE: 'worker' }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await services.cleanup();
    await balancer?.close();
    await origin?.close();
  });

  async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  it('serves the API only on API instances; a worker answers health and metrics alone', async () => {
    const worker = workers[0];
    expect((await fetch(`${worker?.base}/healthz`)).status).toBe(200);
    expect((await fetch(`${worker?.base}/metrics`, { headers: admin })).status).toBe(200);
    expect((await fetch(`${worker?.base}/v1/templates`)).status).toBe(404);
    expect(worker?.output()).toContain('render worker is running');
    expect(worker?.output()).toContain('"queue":"bullmq"');
  });

  it('finishes a batch whose worker is killed mid-render: every row done, each charged once', async () => {
    const base = balancer.base;
    const ws = await http(base, 'POST', '/admin/v1/workspaces', {
      body: { name: 'w', credits: 100 },
      headers: admin,
    });
    const workspaceId = ws.json.id as string;
    const key = (
      await http(base, 'POST', `/admin/v1/workspaces/${workspaceId}/api-keys`, {
        body: { scopes: ['template:read', 'template:write', 'render:write'] },
        headers: admin,
      })
    ).json.key as string;
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const hook = await http(base, 'POST', `/admin/v1/workspaces/${workspaceId}/webhooks`, {
        body: { url: receiver.url('/done'), events: ['batch.completed'] },
        headers: admin,
      });
      receiver.secrets.set('/done', hook.json.secret);
      const template = await http(base, 'POST', '/v1/templates', {
        body: { name: 't', document: photoDocument() },
        headers: bearer(key),
      });
      const rows = Array.from({ length: ROWS }, (_, i) => ({
        name: `row ${i}`,
        photo: `${origin.base}/${i}.png`,
      }));
      const created = await http(base, 'POST', `/v1/templates/${template.json.id}/batches`, {
        body: { rows },
        headers: bearer(key),
      });
      expect(created.status).toBe(201);

      // Kill a worker while a render it claimed is in flight.
      const victim = workers[0];
      const victimId = victim ? instanceIdOf(victim) : undefined;
      expect(victimId).toMatch(/^ins_/);
      let inFlight: string[] = [];
      await eventually(async () => {
        inFlight = (
          await query<{ id: string }>(
            `SELECT id FROM renders WHERE status = 'pending' AND instance_id = $1 AND locked_until IS NOT NULL`,
            [victimId],
          )
        ).map((r) => r.id);
        return inFlight.length > 0;
      }, 20_000);
      await victim?.stop('SIGKILL');

      let batch: { status?: string; progress?: unknown; rows?: Array<{ status: string; renderId: string }> } =
        {};
      await eventually(async () => {
        batch = (await http(base, 'GET', `/v1/batches/${created.json.id}`, { headers: bearer(key) })).json;
        return batch.status === 'completed';
      }, 90_000);
      expect(batch.progress).toEqual({ done: ROWS, failed: 0, pending: 0 });

      // The render cut off by the kill was run again by the other worker, and recorded once.
      const survivorId = workers[1] ? instanceIdOf(workers[1]) : undefined;
      const redone = await query<{ id: string; status: string; instance_id: string }>(
        'SELECT id, status, instance_id FROM renders WHERE id = ANY($1)',
        [inFlight],
      );
      expect(redone.map((r) => [r.status, r.instance_id])).toEqual(inFlight.map(() => ['done', survivorId]));
      const outputs = await query<{ render_id: string; n: string }>(
        'SELECT render_id, count(*) AS n FROM render_outputs GROUP BY render_id HAVING count(*) > 1',
      );
      expect(outputs).toEqual([]);
      const ledger = (
        await http(base, 'GET', `/admin/v1/workspaces/${workspaceId}/ledger`, { headers: admin })
      ).json.items.map((entry: { delta: number }) => entry.delta);
      expect(ledger).toEqual([100, ...Array(ROWS).fill(-1)]);

      await eventually(() => receiver.delivered('/done').size >= 1, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(receiver.delivered('/done').size).toBe(1);
    } finally {
      await receiver.close();
    }
  }, 180_000);
});

describe.skipIf(skip)(`the BullMQ sweep${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('postgres', { PLATEN_REDIS_URL: redisUrl ?? '' });
  });
  afterAll(() => server.close());

  it('enters again a background render whose queue entry was lost', async () => {
    const queue = server.services.renderQueue as BullRenderQueue;
    expect(queue.kind).toBe('bullmq');
    const { key } = await workspaceWithKey(server.base, { credits: 5 });
    const template = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 't', document: simpleDocument() },
      headers: bearer(key),
    });
    // Accepted while the queue is down: charged and stored, but never entered.
    await queue.stop();
    const accepted = await http(server.base, 'POST', `/v1/templates/${template.json.id}/render`, {
      body: { async: true, modifications: { name: 'lost' } },
      headers: bearer(key),
    });
    expect([accepted.status, accepted.json.status]).toEqual([202, 'pending']);
    await queue.start();
    const status = () =>
      http(server.base, 'GET', `/v1/renders/${accepted.json.id}`, { headers: bearer(key) }).then(
        (r) => r.json,
      );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await status()).status).toBe('pending');
    // The sweep, as it runs a minute later.
    expect(await queue.requeueStranded(new Date(Date.now() + 61_000))).toBe(1);
    await eventually(async () => Boolean((await status()).url), 15_000);
  });
});
