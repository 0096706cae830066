/**
 * Bulk throughput for `npm run bench:api`: one batch of distinct rows on the benchmark design (JPEG,
 * the headline changes per row), timed from its POST until it is complete, in renders per second.
 * Measured on the embedded default (one process, the database queue) and, with PostgreSQL and
 * Redis, on one API-only instance with one and then two dedicated render workers (`platen worker`,
 * BullMQ), each worker with the same number of render processes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomBase62 } from '../src/core/ids.ts';
import { ensureBuilt } from '../test/global-setup.ts';
import { freePort } from '../test/harness/ports.ts';
import { benchDocument, photoJpeg } from './designs.ts';

// The services it starts run dist/: build it first when a source is newer.
ensureBuilt();

const ADMIN = 'bench-admin-token-0123456789';

export interface BulkRow {
  setup: string;
  workers: number;
  renderProcessesPerWorker: number;
  rows: number;
  /** The batch's POST: every row priced, charged and queued. */
  acceptedInSeconds: number;
  seconds: number;
  rendersPerSecond: number;
}

interface Options {
  quick: boolean;
  databaseUrl?: string;
  redisUrl?: string;
  renderProcesses: number;
}

function start(env: Record<string, string>, args: string[] = ['dist/main.js']): ChildProcess {
  return spawn(process.execPath, ['--enable-source-maps', ...args], {
    env: {
      ...process.env,
      PLATEN_ADMIN_TOKEN: ADMIN,
      PLATEN_LOG_LEVEL: 'warn',
      PLATEN_RENDER_RATE_LIMIT: '0',
      PLATEN_BOOTSTRAP: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function healthy(base: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${base} did not start`);
}

async function call(base: string, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body instanceof Uint8Array
        ? { 'content-type': 'image/jpeg' }
        : body
          ? { 'content-type': 'application/json' }
          : {}),
    },
    body: body instanceof Uint8Array ? new Uint8Array(body) : body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as Record<string, unknown>;
}

/** One batch of `rows` fresh JPEGs through `base`, from the POST until no row is pending. */
async function timeBatch(
  base: string,
  rows: number,
  tag: string,
): Promise<{ seconds: number; posted: number }> {
  const ws = await call(base, 'POST', '/admin/v1/workspaces', ADMIN, { name: 'bulk', credits: 1_000_000 });
  const { key } = (await call(base, 'POST', `/admin/v1/workspaces/${ws.id}/api-keys`, ADMIN, {
    scopes: ['template:read', 'template:write', 'render:write', 'asset:write'],
  })) as { key: string };
  const photo = await call(base, 'POST', '/v1/assets', key, new Uint8Array(await photoJpeg()));
  const template = await call(base, 'POST', '/v1/templates', key, {
    name: 'bulk',
    document: benchDocument(`asset:${photo.id}`),
  });
  let posted = 0;
  const batch = async (count: number, label: string) => {
    const postedAt = performance.now();
    const created = await call(base, 'POST', `/v1/templates/${template.id}/batches`, key, {
      format: 'jpeg',
      rows: Array.from({ length: count }, (_, i) => ({ headline: `${label} ${tag} row ${i}` })),
    });
    if (typeof created.id !== 'string') throw new Error(`batch refused: ${JSON.stringify(created)}`);
    posted = (performance.now() - postedAt) / 1000;
    for (;;) {
      const state = (await call(base, 'GET', `/v1/batches/${created.id}`, key)) as {
        status: string;
        progress: { failed: number };
      };
      if (state.status !== 'running') {
        if (state.progress.failed > 0) throw new Error(`${state.progress.failed} rows failed`);
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await batch(8, 'warm-up'); // render processes started, fonts and the photo cached
  const started = performance.now();
  await batch(rows, 'timed');
  return { seconds: (performance.now() - started) / 1000, posted };
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

async function embedded(options: Options, rows: number): Promise<BulkRow> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platen-bulk-'));
  const base = `http://127.0.0.1:${await freePort()}`;
  const child = start({
    PORT: new URL(base).port,
    PLATEN_DATA_DIR: dataDir,
    PLATEN_RENDER_WORKERS: String(options.renderProcesses),
  });
  try {
    await healthy(base);
    const timing = await timeBatch(base, rows, 'embedded');
    return row('embedded default (database queue, one process)', 1, options, rows, timing);
  } finally {
    await stopAll([child]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function withWorkers(options: Options, rows: number, workers: number): Promise<BulkRow> {
  const databaseUrl = options.databaseUrl ?? '';
  const schema = `bench_${randomBase62(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'platen-bulk-'));
  const base = `http://127.0.0.1:${await freePort()}`;
  const env = {
    DATABASE_URL: url.toString(),
    PLATEN_REDIS_URL: options.redisUrl ?? '',
    PLATEN_BASE_URL: base,
    PLATEN_DATA_DIR: dataDir,
    PLATEN_RENDER_WORKERS: String(options.renderProcesses),
  };
  const children = [start({ ...env, PORT: new URL(base).port, PLATEN_ROLE: 'api' })];
  try {
    await healthy(base);
    for (let i = 0; i < workers; i++) {
      const workerBase = `http://127.0.0.1:${await freePort()}`;
      children.push(start({ ...env, PORT: new URL(workerBase).port }, ['bin/platen.js', 'worker']));
      await healthy(workerBase);
    }
    const timing = await timeBatch(base, rows, `workers-${workers}`);
    return row(
      `API instance + ${workers} render worker${workers > 1 ? 's' : ''} (BullMQ)`,
      workers,
      options,
      rows,
      timing,
    );
  } finally {
    await stopAll(children);
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

function row(
  setup: string,
  workers: number,
  options: Options,
  rows: number,
  { seconds, posted }: { seconds: number; posted: number },
): BulkRow {
  return {
    setup,
    workers,
    renderProcessesPerWorker: options.renderProcesses,
    rows,
    acceptedInSeconds: Number(posted.toFixed(2)),
    seconds: Number(seconds.toFixed(2)),
    rendersPerSecond: Number((rows / seconds).toFixed(1)),
  };
}

export async function bulkThroughput(options: Options): Promise<{ rows: BulkRow[]; skipped?: string }> {
  const count = options.quick ? 40 : 300;
  const rows = [await embedded(options, count)];
  if (!options.databaseUrl || !options.redisUrl)
    return { rows, skipped: 'workers: set PLATEN_TEST_DATABASE_URL and PLATEN_TEST_REDIS_URL' };
  rows.push(await withWorkers(options, count, 1));
  rows.push(await withWorkers(options, count, 2));
  return { rows };
}
