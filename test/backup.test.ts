/**
 * Backup and restore with the real commands (`platen backup`, `platen restore`) against real service
 * processes: a backup taken while the service serves a stream of writes restores into a new
 * deployment that serves the same records and the same file bytes, and holds every write
 * acknowledged before the backup began. SQLite with the folder store always; PostgreSQL (pg_dump)
 * with S3 (s3rver), restored into another database and bucket, when PostgreSQL is configured.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../src/core/ids.ts';
import { s3ClientConfig } from '../src/files/s3.ts';
import { PNG_1X1, simpleDocument } from './fixtures/samples.ts';
import { pgUrl } from './harness/backends.ts';
import type { ServiceProcess } from './harness/process.ts';
import { ADMIN_TOKEN, bearer, http, workspaceWithKey } from './harness/server.ts';
import { fleet } from './harness/webhooks.ts';

const root = new URL('..', import.meta.url).pathname;
const services = fleet({
  PLATEN_BOOTSTRAP: 'false',
  PLATEN_RENDER_RATE_LIMIT: '0',
  PLATEN_RENDER_WORKERS: '1',
});
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  await services.cleanup();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Runs `platen <args>` with the service's configuration; its exit code and output. */
function platen(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/platen.js'), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

interface Seeded {
  workspaceId: string;
  key: string;
  renderId: string;
  renderBytes: Buffer;
  assetId: string;
}

async function seed(base: string): Promise<Seeded> {
  const { workspaceId, key } = await workspaceWithKey(base, { credits: 7 });
  const template = await http(base, 'POST', '/v1/templates', {
    body: { name: 'kept', document: simpleDocument() },
    headers: bearer(key),
  });
  const render = await http(base, 'POST', `/v1/templates/${template.json.id}/render`, {
    body: { format: 'png', modifications: { name: 'backup' } },
    headers: bearer(key),
  });
  expect(render.status).toBe(200);
  const asset = await http(base, 'POST', '/v1/assets', {
    raw: PNG_1X1,
    headers: { ...bearer(key), 'content-type': 'image/png' },
  });
  expect(asset.status).toBe(201);
  const renderBytes = Buffer.from(await (await fetch(render.json.url)).arrayBuffer());
  return { workspaceId, key, renderId: render.json.id, renderBytes, assetId: asset.json.id };
}

/** Creates templates one after another until stopped; the ids each acknowledged, with when. */
function writeStream(base: string, key: string) {
  const acknowledged: { id: string; at: number }[] = [];
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const res = await http(base, 'POST', '/v1/templates', {
        body: { name: `w${i}`, width: 10, height: 10 },
        headers: bearer(key),
      });
      if (res.status === 201) acknowledged.push({ id: res.json.id, at: Date.now() });
    }
  })();
  return {
    acknowledged,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** The restored deployment serves what the original did. */
async function assertRestored(base: string, seeded: Seeded, mustHave: string[]): Promise<void> {
  const ledger = await http(base, 'GET', `/admin/v1/workspaces/${seeded.workspaceId}/ledger`, {
    headers: bearer(ADMIN_TOKEN),
  });
  expect(ledger.json.items.map((e: { delta: number }) => e.delta)).toEqual([7, -1]);
  const render = await http(base, 'GET', `/v1/renders/${seeded.renderId}`, { headers: bearer(seeded.key) });
  expect(render.status).toBe(200);
  const bytes = Buffer.from(await (await fetch(render.json.url)).arrayBuffer());
  expect(bytes.equals(seeded.renderBytes)).toBe(true);
  const asset = await http(base, 'GET', `/v1/assets/${seeded.assetId}`, { headers: bearer(seeded.key) });
  expect(Buffer.from(await (await fetch(asset.json.url)).arrayBuffer()).equals(PNG_1X1)).toBe(true);
  for (const id of mustHave) {
    const template = await http(base, 'GET', `/v1/templates/${id}`, { headers: bearer(seeded.key) });
    expect(template.status, id).toBe(200);
  }
}

/** Seeds, backs up under a stream of writes, stops the original; the backup folder and the facts. */
async function backupUnderLoad(env: Record<string, string>) {
  const original: ServiceProcess = await services.start(env);
  const seeded = await seed(original.base);
  const stream = writeStream(original.base, seeded.key);
  await new Promise((r) => setTimeout(r, 300));
  const began = Date.now();
  const out = join(services.tempDir('backup'), 'b');
  const made = await platen(['backup', '--out', out], env);
  await stream.stop();
  expect(made.code, made.output).toBe(0);
  expect(made.output).toMatch(/backed up the (sqlite|postgres) database and \d+ files/);
  const mustHave = stream.acknowledged.filter((w) => w.at < began).map((w) => w.id);
  expect(mustHave.length).toBeGreaterThan(0);
  await original.stop('SIGTERM');
  return { seeded, out, mustHave };
}

describe('backup and restore', () => {
  it('SQLite and folder: an online backup restores into a new data directory', async () => {
    const env = { PLATEN_DATA_DIR: services.tempDir('live') };
    const { seeded, out, mustHave } = await backupUnderLoad(env);
    const manifest = JSON.parse(readFileSync(join(out, 'backup.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 1, database: 'sqlite', files: { backend: 'folder' } });
    expect(manifest.rows.templates).toBeGreaterThanOrEqual(mustHave.length + 1);

    const restoredEnv = { PLATEN_DATA_DIR: services.tempDir('restored') };
    const restored = await platen(['restore', '--from', out], restoredEnv);
    expect(restored.code, restored.output).toBe(0);
    // Never over an existing database, and never under a running service.
    const again = await platen(['restore', '--from', out], restoredEnv);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/exists: restore into an empty data directory/);
    const service = await services.start(restoredEnv);
    const locked = await platen(['restore', '--from', out], restoredEnv);
    expect(locked.code).toBe(1);
    expect(locked.output).toMatch(/in use by another Platen process/);
    await assertRestored(service.base, seeded, mustHave);
    // A backup of one kind does not restore into the other.
    if (pgUrl) {
      const wrongKind = await platen(['restore', '--from', out], {
        ...restoredEnv,
        DATABASE_URL: pgUrl,
      });
      expect(wrongKind.output).toMatch(/holds a sqlite database; this configuration uses postgres/);
    }
  }, 120_000);

  it.skipIf(!pgUrl)(
    `PostgreSQL and S3: pg_dump while serving, restored into another database and bucket${pgUrl ? '' : ' (skipped: PLATEN_TEST_DATABASE_URL not set)'}`,
    async () => {
      const s3Env = await s3Buckets(['live', 'restored']);
      const env = {
        ...s3Env('live'),
        PLATEN_DATA_DIR: services.tempDir('pg-live'),
        DATABASE_URL: await services.pgDatabase(pgUrl ?? ''),
      };
      const { seeded, out, mustHave } = await backupUnderLoad(env);
      expect(JSON.parse(readFileSync(join(out, 'backup.json'), 'utf8'))).toMatchObject({
        database: 'postgres',
        files: { backend: 's3' },
      });
      // Another database on the same server; the dump recreates the schema the URL names.
      const database = `platen_restore_${randomBase62(8).toLowerCase()}`;
      await adminQuery(`CREATE DATABASE ${database}`);
      cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
      const target = new URL(env.DATABASE_URL);
      target.pathname = `/${database}`;
      const restoredEnv = {
        ...s3Env('restored'),
        PLATEN_DATA_DIR: services.tempDir('pg-restored'),
        DATABASE_URL: target.toString(),
      };
      const restored = await platen(['restore', '--from', out], restoredEnv);
      expect(restored.code, restored.output).toBe(0);
      const again = await platen(['restore', '--from', out], restoredEnv);
      expect(again.output).toMatch(/already has Platen tables/);
      const service = await services.start(restoredEnv);
      await assertRestored(service.base, seeded, mustHave);
    },
    120_000,
  );
});

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** An s3rver with the named buckets; the service variables for each. */
async function s3Buckets(names: string[]): Promise<(name: string) => Record<string, string>> {
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: services.tempDir('s3') });
  const { port } = await s3.run();
  cleanups.push(() => s3.close());
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client(
    s3ClientConfig({
      bucket: 'x',
      region: 'us-east-1',
      endpoint,
      ...credentials,
      forcePathStyle: true,
      prefix: '',
    }),
  );
  for (const bucket of names) await client.send(new CreateBucketCommand({ Bucket: `platen-${bucket}` }));
  client.destroy();
  return (name) => ({
    PLATEN_S3_BUCKET: `platen-${name}`,
    PLATEN_S3_ENDPOINT: endpoint,
    PLATEN_S3_ACCESS_KEY_ID: credentials.accessKeyId,
    PLATEN_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    PLATEN_S3_FORCE_PATH_STYLE: 'true',
  });
}
