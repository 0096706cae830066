/**
 * `npm run bench:api`: drives the real server over loopback with autocannon and prints renders/s,
 * p50/p99 latency and peak RSS for fresh JPEG renders, identical replays and a mixed workload, next
 * to the raw render pool's rate measured in the same run. Writes bench/results/api.json.
 * `--quick` runs each phase briefly (CI smoke).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { parseDesignDocument } from '../src/design/index.ts';
import { RenderPool } from '../src/engine/index.ts';
import { benchDocument, photoJpeg } from './designs.ts';

const quick = process.argv.includes('--quick');
const seconds = quick ? 2 : 10;
const ADMIN = 'bench-admin-token-0123456789';
const PHOTO_ID = 'ast_benchphotobenchphoto00';

interface Row {
  phase: string;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function rawPoolRate(photo: Buffer): Promise<number> {
  const parsed = parseDesignDocument(benchDocument(`asset:${PHOTO_ID}`));
  if (!parsed.ok) throw new Error('bench design is invalid');
  const workers = availableParallelism();
  const pool = new RenderPool({ workers, maxQueue: 1024, timeoutMs: 30_000 });
  const job = {
    document: parsed.document,
    pageIds: [parsed.document.activePageId],
    format: 'jpeg' as const,
    workspaceId: 'ws_bench',
    assets: { [PHOTO_ID]: { bytes: new Uint8Array(photo), mimeType: 'image/jpeg' } },
    fonts: [],
  };
  for (let i = 0; i < workers * 3; i++) await pool.render(job);
  const count = quick ? 40 : 200;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: workers * 2 }, async () => {
      while (next++ < count) await pool.render(job);
    }),
  );
  const rate = count / ((performance.now() - started) / 1000);
  await pool.close();
  return rate;
}

async function startServer(port: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'platen-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      PLATEN_DATA_DIR: dataDir,
      PLATEN_ADMIN_TOKEN: ADMIN,
      PLATEN_LOG_LEVEL: 'warn',
      PLATEN_RENDER_RATE_LIMIT: '0',
      PLATEN_BOOTSTRAP: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, child };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

async function post(base: string, path: string, body: unknown, token: string) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function drive(
  phase: string,
  base: string,
  path: string,
  key: string,
  connections: number,
  body: (i: number) => unknown,
): Promise<Row> {
  let counter = 0;
  const result = await autocannon({
    url: base + path,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    setupClient: (client) => {
      client.setBody(JSON.stringify(body(counter++)));
    },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(body(counter++)) }) }],
  });
  return {
    phase,
    connections,
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function main() {
  const photo = await photoJpeg();
  const poolRate = await rawPoolRate(photo);
  const { base, child } = await startServer(39000 + Math.floor(Math.random() * 1000));
  try {
    const adminHeaders = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    const ws = (await (
      await fetch(`${base}/admin/v1/workspaces`, {
        method: 'POST',
        headers: adminHeaders,
        body: JSON.stringify({ name: 'bench', credits: 100_000_000 }),
      })
    ).json()) as { id: string };
    const keyRes = (await (
      await fetch(`${base}/admin/v1/workspaces/${ws.id}/api-keys`, {
        method: 'POST',
        headers: adminHeaders,
        body: JSON.stringify({ scopes: ['template:write', 'render:write', 'asset:write'] }),
      })
    ).json()) as { key: string };
    const uploaded = (await (
      await fetch(`${base}/v1/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyRes.key}`, 'content-type': 'image/jpeg' },
        body: new Uint8Array(photo),
      })
    ).json()) as { id: string };
    const design = benchDocument(`asset:${uploaded.id}`);
    const template = await post(base, '/v1/templates', { name: 'bench', document: design }, keyRes.key);
    const path = `/v1/templates/${template.id}/render`;
    const run = `${Date.now()}`;
    await post(base, path, { format: 'jpeg', idempotencyKey: 'replay' }, keyRes.key);
    const rows: Row[] = [];
    rows.push(
      await drive('fresh jpeg', base, path, keyRes.key, 4, (i) => ({
        format: 'jpeg',
        idempotencyKey: `${run}-f${i}`,
      })),
    );
    rows.push(
      await drive('identical replay', base, path, keyRes.key, 32, () => ({
        format: 'jpeg',
        idempotencyKey: 'replay',
      })),
    );
    rows.push(
      await drive('mixed (1 fresh : 4 replays)', base, path, keyRes.key, 8, (i) =>
        i % 5 === 0
          ? { format: 'jpeg', idempotencyKey: `${run}-m${i}` }
          : { format: 'jpeg', idempotencyKey: 'replay' },
      ),
    );
    const rss = peakRssMb(child.pid ?? 0);
    const fresh = rows[0];
    const report = {
      machine: { cores: availableParallelism(), node: process.version },
      quick,
      rawPoolJpegPerSecond: Math.round(poolRate * 10) / 10,
      freshVsPool: fresh ? Math.round((fresh.requestsPerSecond / poolRate) * 100) / 100 : null,
      serverPeakRssMb: rss,
      rows,
      targets: {
        freshVsPool: '>= 0.8',
        freshPerSecond: '>= 40',
        freshP99Ms: '< 250 at 4 clients',
        replayPerSecond: '>= 3000',
        replayP99Ms: '< 50 at 32 clients',
      },
    };
    console.table(rows);
    console.log(
      `raw pool: ${report.rawPoolJpegPerSecond} jpeg/s; end to end / pool = ${report.freshVsPool}; server peak RSS ${rss} MB`,
    );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/api.json', `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
