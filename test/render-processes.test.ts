/**
 * Real service processes (`npm start`): two instances sharing one PostgreSQL database render and
 * charge identical requests once; a kill -9 in the middle of a burst leaves a ledger, a balance and
 * stored renders that agree after restart.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../src/core/ids.ts';
import { openStore, type Store } from '../src/store/index.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { pgUrl, urlWithSchema } from './harness/backends.ts';
import { type ServiceProcess, startService } from './harness/process.ts';
import { ADMIN_TOKEN, bearer, http } from './harness/server.ts';

const started: ServiceProcess[] = [];
afterAll(async () => {
  for (const s of started) await s.stop('SIGKILL');
});

async function start(env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startService({
    PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
    PLATEN_RENDER_RATE_LIMIT: '0',
    PLATEN_LOG_LEVEL: 'warn',
    ...env,
  });
  started.push(service);
  return service;
}

async function setup(base: string, credits: number, size = 600) {
  const adminHeaders = bearer(ADMIN_TOKEN);
  const ws = await http(base, 'POST', '/admin/v1/workspaces', {
    body: { name: 'p', credits },
    headers: adminHeaders,
  });
  const key = await http(base, 'POST', `/admin/v1/workspaces/${ws.json.id}/api-keys`, {
    body: { scopes: ['template:write', 'render:write'] },
    headers: adminHeaders,
  });
  const doc = simpleDocument();
  if (doc.pages[0]) {
    doc.pages[0].width = size;
    doc.pages[0].height = size;
  }
  const t = await http(base, 'POST', '/v1/templates', {
    body: { name: 't', document: doc },
    headers: bearer(key.json.key),
  });
  return { workspaceId: ws.json.id as string, key: key.json.key as string, templateId: t.json.id as string };
}

/** Ledger, balance and renders agree: no charge without a render, no render without a charge. */
async function assertConsistent(
  store: Store,
  workspaceId: string,
  fileExists: (key: string) => Promise<boolean>,
) {
  const { db } = store.handle;
  const balance = Number(
    (
      await db
        .selectFrom('workspaces')
        .select('credit_balance')
        .where('id', '=', workspaceId)
        .executeTakeFirstOrThrow()
    ).credit_balance,
  );
  const ledger = await db
    .selectFrom('credit_ledger')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
  expect(ledger.reduce((s, e) => s + Number(e.delta), 0)).toBe(balance);
  const renders = await db
    .selectFrom('renders')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .execute();
  expect(renders.filter((r) => r.status === 'pending')).toEqual([]);
  for (const render of renders) {
    const net = ledger.filter((e) => e.render_id === render.id).reduce((s, e) => s + Number(e.delta), 0);
    expect([render.status, net]).toEqual([
      render.status,
      render.status === 'done' ? -Number(render.charged) : 0,
    ]);
    if (render.status === 'done')
      for (const key of JSON.parse(render.file_keys) as string[]) expect(await fileExists(key)).toBe(true);
  }
  return { balance, done: renders.filter((r) => r.status === 'done').length };
}

describe('a crash in the middle of a burst (SQLite)', () => {
  it('leaves ledger, balance and stored renders in agreement after restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'platen-crash-'));
    let service = await start({ PLATEN_DATA_DIR: dataDir });
    const { workspaceId, key, templateId } = await setup(service.base, 500, 1500);
    const burst = Array.from({ length: 40 }, (_, i) =>
      http(service.base, 'POST', `/v1/templates/${templateId}/render`, {
        body: { idempotencyKey: `c${i}` },
        headers: bearer(key),
      }).catch(() => null),
    );
    // Kill only once renders are in flight (recorded and charged, not finished).
    const watcher = await openStore({ dataDir });
    let inFlight: string[] = [];
    for (let i = 0; i < 400 && inFlight.length < 3; i++) {
      const pending = await watcher.handle.db
        .selectFrom('renders')
        .select('id')
        .where('status', '=', 'pending')
        .execute();
      inFlight = pending.map((r) => r.id);
      if (inFlight.length < 3) await new Promise((r) => setTimeout(r, 25));
    }
    await service.stop('SIGKILL');
    await watcher.close();
    // The kill must land on charged renders still pending, or the test proves nothing.
    expect(inFlight.length).toBeGreaterThanOrEqual(3);
    await Promise.all(burst);
    service = await start({ PLATEN_DATA_DIR: dataDir, PORT: new URL(service.base).port });
    const store = await openStore({ dataDir });
    try {
      // The restarted service refunds the renders it finds pending once it listens (its upkeep
      // starts after the port opens): wait for that, then read ledger and balance at rest.
      await expect
        .poll(
          async () =>
            (
              await store.handle.db
                .selectFrom('renders')
                .select('id')
                .where('workspace_id', '=', workspaceId)
                .where('status', '=', 'pending')
                .execute()
            ).length,
          { timeout: 15_000 },
        )
        .toBe(0);
      const { balance, done } = await assertConsistent(store, workspaceId, async (k) =>
        existsSync(join(dataDir, 'files', k)),
      );
      // Each render pending at the kill either finished before it or was refunded after restart.
      const after = await store.handle.db
        .selectFrom('renders')
        .select(['id', 'status'])
        .where('id', 'in', inFlight)
        .execute();
      expect(after).toHaveLength(inFlight.length);
      const refunds = await store.handle.db
        .selectFrom('credit_ledger')
        .select(['render_id', 'delta'])
        .where('render_id', 'in', inFlight)
        .where('delta', '>', 0)
        .execute();
      const refunded = after.filter((r) => r.status !== 'done');
      expect(refunded.length).toBeGreaterThan(0);
      expect(refunds.map((r) => r.render_id).sort()).toEqual(refunded.map((r) => r.id).sort());
      expect(balance).toBe(500 - done);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!pgUrl)(
  `two service processes on one PostgreSQL${pgUrl ? '' : ' (skipped: PLATEN_TEST_DATABASE_URL not set)'}`,
  () => {
    it('render and charge identical requests once, whichever process they reach', async () => {
      const schema = `t_${randomBase62(12).toLowerCase()}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      try {
        const databaseUrl = urlWithSchema(pgUrl ?? '', schema);
        const a = await start({
          DATABASE_URL: databaseUrl,
          PLATEN_DATA_DIR: mkdtempSync(join(tmpdir(), 'platen-a-')),
        });
        const sharedFiles = mkdtempSync(join(tmpdir(), 'platen-shared-'));
        const b = await start({ DATABASE_URL: databaseUrl, PLATEN_DATA_DIR: sharedFiles });
        const { workspaceId, key, templateId } = await setup(a.base, 100);
        const requests = Array.from({ length: 40 }, (_, i) =>
          http(i % 2 ? a.base : b.base, 'POST', `/v1/templates/${templateId}/render`, {
            body: { modifications: { name: 'twin' } },
            headers: bearer(key),
          }),
        );
        const results = await Promise.all(requests);
        expect(results.map((r) => r.status)).toEqual(Array(40).fill(200));
        expect(results.filter((r) => r.json.credits.charged === 1)).toHaveLength(1);
        expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
        const store = await openStore({ dataDir: sharedFiles, databaseUrl: pgUrl, pgSchema: schema });
        try {
          const balance = Number(
            (
              await store.handle.db
                .selectFrom('workspaces')
                .select('credit_balance')
                .where('id', '=', workspaceId)
                .executeTakeFirstOrThrow()
            ).credit_balance,
          );
          expect(balance).toBe(99);
        } finally {
          await store.close();
        }
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      }
    });
  },
);
