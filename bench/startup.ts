/**
 * `npm run bench:startup [-- --quick]`: what the compiled runtime saves. Starts the service, on a
 * fresh data directory each time, two ways in the same run, alternating so that a busy neighbour
 * weighs on both alike:
 * - `compiled`: `node --enable-source-maps dist/main.js`, what `npm start` and the image run;
 * - `tsx`: `node --import tsx src/main.ts`, what they ran before (TypeScript compiled at run time).
 * For each: the time from spawn to the first 200 from `/healthz`, the service process's RSS then, and
 * its RSS after one render through the API (render processes are children, not counted). Prints a
 * table and writes bench/results/startup.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../test/global-setup.ts';
import { freePort } from '../test/harness/server.ts';
import { statusMb } from './proc.ts';
import { stat } from './stats.ts';

// The services it starts run dist/: build it first when a source is newer.
ensureBuilt();

const quick = process.argv.includes('--quick');
const runs = quick ? 2 : 7;
const ADMIN = 'bench-admin-token-0123456789';
const root = new URL('..', import.meta.url).pathname;
const card = JSON.parse(readFileSync(join(root, 'src/design/fixtures/promo-card.json'), 'utf8'));

const modes = {
  compiled: ['--enable-source-maps', 'dist/main.js'],
  tsx: ['--import', 'tsx', 'src/main.ts'],
} as const;
type Mode = keyof typeof modes;

interface Sample {
  readyMs: number;
  rssReadyMb: number;
  rssAfterRenderMb: number;
}

async function waitReady(base: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function api(
  base: string,
  path: string,
  token: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function once(mode: Mode): Promise<Sample> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'platen-bench-startup-'));
  const started = performance.now();
  const child = spawn(process.execPath, [...modes[mode]], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      PLATEN_HOST: '127.0.0.1',
      PLATEN_DATA_DIR: dataDir,
      PLATEN_ADMIN_TOKEN: ADMIN,
      PLATEN_LOG_LEVEL: 'warn',
      PLATEN_RENDER_RATE_LIMIT: '0',
      PLATEN_BOOTSTRAP: 'false',
      PLATEN_RENDER_WORKERS: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitReady(base, child);
    const readyMs = performance.now() - started;
    const pid = child.pid ?? 0;
    const rssReadyMb = statusMb(pid, 'VmRSS');
    const workspace = await api(base, '/admin/v1/workspaces', ADMIN, { name: 'bench', credits: 10 });
    const key = await api(base, `/admin/v1/workspaces/${workspace.id}/api-keys`, ADMIN, {
      scopes: ['template:write', 'render:write'],
    });
    const template = await api(base, '/v1/templates', String(key.key), { name: 'card', document: card });
    await api(base, `/v1/templates/${template.id}/render`, String(key.key), { format: 'png' });
    return { readyMs, rssReadyMb, rssAfterRenderMb: statusMb(pid, 'VmRSS') };
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const samples: Record<Mode, Sample[]> = { compiled: [], tsx: [] };
// One warm-up each (the OS page cache, tsx's own cache), then alternating runs.
await once('compiled');
await once('tsx');
for (let i = 0; i < runs; i++) {
  for (const mode of Object.keys(modes) as Mode[]) samples[mode].push(await once(mode));
}

function summarise(mode: Mode) {
  const of = (field: keyof Sample) => stat(samples[mode].map((s) => s[field]));
  return {
    command: `node ${modes[mode].join(' ')}`,
    readyMs: of('readyMs'),
    rssReadyMb: of('rssReadyMb'),
    rssAfterRenderMb: of('rssAfterRenderMb'),
  };
}
const summary = { compiled: summarise('compiled'), tsx: summarise('tsx') };

console.log(`\nService start (${runs} runs each, medians; ${quick ? 'quick' : 'full'} mode)\n`);
console.log('| runtime | ready (ms) | RSS ready (MB) | RSS after a render (MB) |');
console.log('| --- | ---: | ---: | ---: |');
for (const mode of Object.keys(modes) as Mode[]) {
  const s = summary[mode];
  console.log(
    `| ${s.command} | ${s.readyMs.median} | ${s.rssReadyMb.median} | ${s.rssAfterRenderMb.median} |`,
  );
}
const ratio = (a: number, b: number) => (a / b).toFixed(2);
console.log(
  `\ncompiled vs tsx: start ${ratio(summary.tsx.readyMs.median, summary.compiled.readyMs.median)}× faster, ` +
    `RSS ${ratio(summary.compiled.rssAfterRenderMb.median, summary.tsx.rssAfterRenderMb.median)}× after a render`,
);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(
  join(root, 'bench/results/startup.json'),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, quick, runs, summary }, null, 2)}\n`,
);
