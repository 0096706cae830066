/**
 * Store hardening, against the service as `npm start` starts it: credits past 32 bits and their
 * maximum (SQLite and PostgreSQL), a data-dir lock that dies with its process (restart right after
 * kill -9), and the sweep of stored files that no record references. The sweep's age logic is also
 * checked directly, with a real store and real folder files.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditTrail } from '../src/audit/trail.ts';
import { randomBase62 } from '../src/core/ids.ts';
import { createLogger } from '../src/core/logger.ts';
import { CreditService, MAX_CREDIT_BALANCE, MAX_CREDIT_CHANGE } from '../src/credits/service.ts';
import { FolderFileStore, folderRoot } from '../src/files/index.ts';
import { RenderMaintenance } from '../src/renders/maintenance.ts';
import { openStore, type Store } from '../src/store/index.ts';
import { changeCredits } from '../src/store/workspaces.ts';
import { PNG_1X1, simpleDocument } from './fixtures/samples.ts';
import { backends, pgUrl, type TestDatabase, testDatabase, urlWithSchema } from './harness/backends.ts';
import { type ServiceProcess, startService, waitForExit } from './harness/process.ts';
import { ADMIN_TOKEN, bearer, http } from './harness/server.ts';

const started: ServiceProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const s of started) await s.stop('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `platen-${label}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(env: Record<string, string>, options?: { waitReady?: boolean }) {
  const service = await startService(
    { PLATEN_ADMIN_TOKEN: ADMIN_TOKEN, PLATEN_RENDER_RATE_LIMIT: '0', PLATEN_LOG_LEVEL: 'warn', ...env },
    options,
  );
  started.push(service);
  return service;
}

const admin = (base: string, method: string, path: string, body?: unknown) =>
  http(base, method, `/admin/v1${path}`, { body, headers: bearer(ADMIN_TOKEN) });

/** A PostgreSQL schema of its own for a service process, dropped after the file. */
async function freshSchema(url: string): Promise<string> {
  const schema = `t_${randomBase62(12).toLowerCase()}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  });
  return schema;
}

describe('operator credits past 32 bits, up to a documented maximum', () => {
  for (const backend of backends) {
    it.skipIf(backend.skip)(
      `on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}: 3 grants of 1e9, then over-maximum grants refused`,
      async () => {
        const dataDir = tempDir('credits');
        const schema = backend.name === 'postgres' && pgUrl ? await freshSchema(pgUrl) : undefined;
        const env: Record<string, string> = { PLATEN_DATA_DIR: dataDir };
        if (schema && pgUrl) env.DATABASE_URL = urlWithSchema(pgUrl, schema);
        const service = await start(env);
        const ws = await admin(service.base, 'POST', '/workspaces', { name: 'big', credits: 0 });
        expect(ws.status).toBe(201);
        const credits = `/workspaces/${ws.json.id}/credits`;

        const answers = [];
        for (const amount of [1e9, 1e9, 1e9, MAX_CREDIT_CHANGE + 1])
          answers.push(await admin(service.base, 'POST', credits, { amount }));
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 400]);
        expect(answers.slice(0, 3).map((a) => a.json.creditBalance)).toEqual([1e9, 2e9, 3e9]);
        expect(answers[3]?.json.error.code).toBe('VALIDATION_FAILED');
        expect(answers[3]?.json.error.details).toEqual([expect.objectContaining({ path: 'amount' })]);
        const creation = await admin(service.base, 'POST', '/workspaces', {
          name: 'x',
          credits: MAX_CREDIT_CHANGE + 1,
        });
        expect([creation.status, creation.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);

        // Bring the balance to 10 below the maximum (no single grant may move that much) ...
        const store = await openStore({ dataDir, databaseUrl: schema ? pgUrl : undefined, pgSchema: schema });
        try {
          await store.handle.db.transaction().execute((trx) =>
            changeCredits(trx, {
              workspaceId: ws.json.id,
              delta: MAX_CREDIT_BALANCE - 10 - 3e9,
              reason: 'test',
              actor: 'test',
            }),
          );
        } finally {
          await store.close();
        }
        // ... then a grant past it is refused and changes nothing; one up to it passes.
        const over = await admin(service.base, 'POST', credits, { amount: 11 });
        expect(over.status).toBe(400);
        expect(over.json.error.code).toBe('VALIDATION_FAILED');
        expect(over.json.error.details).toEqual([
          { path: 'amount', message: expect.stringContaining(String(MAX_CREDIT_BALANCE)) },
        ]);
        expect((await admin(service.base, 'GET', `/workspaces/${ws.json.id}`)).json.creditBalance).toBe(
          MAX_CREDIT_BALANCE - 10,
        );
        const ledger = await admin(service.base, 'GET', `/workspaces/${ws.json.id}/ledger`);
        expect(ledger.json.items).toHaveLength(4);
        const exact = await admin(service.base, 'POST', credits, { amount: 10 });
        expect([exact.status, exact.json.creditBalance]).toEqual([200, MAX_CREDIT_BALANCE]);
      },
      120_000,
    );
  }
});

describe('the data directory after kill -9 (SQLite)', () => {
  it('restarts at once, refuses a second start beside it, and sweeps orphan files at start', async () => {
    const dataDir = tempDir('kill9');
    const files = new FolderFileStore(folderRoot(dataDir));
    let service = await start({ PLATEN_DATA_DIR: dataDir });
    const ws = await admin(service.base, 'POST', '/workspaces', { name: 'k', credits: 10 });
    const key = await admin(service.base, 'POST', `/workspaces/${ws.json.id}/api-keys`, {
      scopes: ['template:write', 'render:write', 'asset:write'],
    });
    const template = await http(service.base, 'POST', '/v1/templates', {
      body: { name: 't', document: simpleDocument() },
      headers: bearer(key.json.key),
    });
    const render = await http(service.base, 'POST', `/v1/templates/${template.json.id}/render`, {
      body: { format: 'png' },
      headers: bearer(key.json.key),
    });
    expect(render.status).toBe(200);
    const asset = await http(service.base, 'POST', '/v1/assets', {
      raw: PNG_1X1,
      headers: { ...bearer(key.json.key), 'content-type': 'image/png' },
    });
    expect(asset.status).toBe(201);
    const keyOf = (url: string) => url.slice(url.indexOf('/files/') + '/files/'.length);
    const referenced = [keyOf(render.json.url), keyOf(asset.json.url)];

    await service.stop('SIGKILL');

    // What a crash leaves: files written with no record, one of them too recent to judge.
    const token = () => randomBase62(24);
    const oldOrphans = [
      `renders/${ws.json.id}/${token()}/rnd_orphanorphanorphan01.png`,
      `assets/${ws.json.id}/${token()}/ast_orphanorphanorphan01.png`,
    ];
    const freshOrphan = `renders/${ws.json.id}/${token()}/rnd_orphanorphanorphan02.png`;
    for (const k of [...oldOrphans, freshOrphan]) await files.put(k, randomBytes(64), 'image/png');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const path = (k: string) => join(folderRoot(dataDir), k);
    for (const k of [...oldOrphans, ...referenced]) utimesSync(path(k), twoHoursAgo, twoHoursAgo);
    // The pid the dead service had is now some live process's: it must not block the restart.
    writeFileSync(join(dataDir, 'platen.pid'), String(process.pid));

    service = await start({ PLATEN_DATA_DIR: dataDir });
    const second = await start({ PLATEN_DATA_DIR: dataDir }, { waitReady: false });
    const code = await waitForExit(second);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(second.output()).toContain(`PLATEN_DATA_DIR ${dataDir} is in use by another Platen process`);
    expect((await http(service.base, 'GET', '/healthz')).status).toBe(200);

    const deadline = Date.now() + 30_000;
    while (oldOrphans.some((k) => existsSync(path(k))) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(oldOrphans.filter((k) => existsSync(path(k)))).toEqual([]);
    expect([...referenced, freshOrphan].filter((k) => !existsSync(path(k)))).toEqual([]);
    expect((await http(service.base, 'GET', `/files/${referenced[0]}`)).status).toBe(200);
    expect((await http(service.base, 'GET', `/files/${referenced[1]}`)).status).toBe(200);
  }, 180_000);
});

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `the orphan-file sweep on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let store: Store;
      beforeEach(async () => {
        database = testDatabase(backend.name);
        store = await database.open();
      });
      afterEach(async () => {
        await store.close();
        await database.destroy();
      });

      it('deletes only unreferenced files under renders/ and assets/ older than the margin', async () => {
        const files = new FolderFileStore(folderRoot(database.dataDir));
        const ws = await store.workspaces.create({ name: 's', credits: 5, actor: 'test' });
        const keys: Record<string, string> = {};
        for (const [name, identityHash] of [
          ['done', 'h1'],
          ['expired', 'h2'],
        ] as const) {
          const begun = await store.renders.begin({
            workspaceId: ws.id,
            templateId: 'tpl_x',
            identityHash,
            format: 'png',
            fileCount: 1,
            actor: 'test',
            instanceId: 'ins_a',
          });
          if (begun.kind !== 'claimed') throw new Error('expected a claim');
          keys[name] = `renders/${ws.id}/tok${identityHash}/${begun.renderId}.png`;
          const output = { id: begun.renderId, position: 0, fileKey: keys[name], result: {} };
          await store.renders.complete(begun.renderId, {}, [output], ws.id);
          if (name === 'expired') await store.renders.markExpired(begun.renderId);
        }
        keys.asset = `assets/${ws.id}/tokasset/ast_keptkeptkeptkeptkept01.png`;
        await store.assets.create({
          id: 'ast_keptkeptkeptkeptkept01',
          workspaceId: ws.id,
          kind: 'image',
          mimeType: 'image/png',
          byteSize: 1,
          width: 1,
          height: 1,
          fontFamily: null,
          fileKey: keys.asset,
          createdAt: new Date().toISOString(),
        });
        keys.renderOrphan = `renders/${ws.id}/tokorphan/rnd_orphan.png`;
        keys.assetOrphan = `assets/${ws.id}/tokorphan/ast_orphan.png`;
        keys.elsewhere = `fonts/${ws.id}/f.ttf`;
        for (const k of Object.values(keys)) await files.put(k, Buffer.from('x'), 'image/png');

        const maintenance = new RenderMaintenance({
          store,
          credits: new CreditService(store, new AuditTrail(store)),
          files,
          instanceId: 'ins_a',
          logger: createLogger('silent'),
          retentionDays: 0,
          singleInstance: true,
          orphanFileMarginMs: 10 * 60 * 1000,
        });
        const minutesFromNow = (m: number) => new Date(Date.now() + m * 60 * 1000);
        expect(await maintenance.sweepOrphanFiles(minutesFromNow(9))).toBe(0);
        const exists = async () =>
          Object.fromEntries(
            await Promise.all(
              Object.entries(keys).map(async ([n, k]) => [n, (await files.head(k)) !== null]),
            ),
          );
        expect(Object.values(await exists()).every(Boolean)).toBe(true);

        expect(await maintenance.sweepOrphanFiles(minutesFromNow(11))).toBe(3);
        expect(await exists()).toEqual({
          done: true,
          expired: false,
          asset: true,
          renderOrphan: false,
          assetOrphan: false,
          elsewhere: true,
        });
      });
    },
  );
}
