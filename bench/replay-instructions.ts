/**
 * `node --import tsx bench/replay-instructions.ts [dist dir …] [--replays N] [--quick]`: the machine
 * instructions the service spends on one identical replay, counted by valgrind's callgrind. Unlike
 * a rate or a CPU time, the count barely moves with what else the machine is doing, so two builds
 * can be told apart by a few per cent on a noisy shared machine (docs/performance.md).
 *
 * For each build (default `dist`; copy an earlier build inside the repository, e.g.
 * `.scratch/dist-before`, so its packages resolve) the service runs under callgrind with counting
 * off; it is set up as for `bench/fresh-rate.ts --replays`, warmed by 8 N replays (so the JIT has
 * settled), then counted over N replays (default 2,000) from 8 connections. Prints the
 * instructions per replay on the service's main thread (the event loop: what the replay rate is
 * bound by) and on all its threads (V8's compiler and garbage collector too), and writes
 * bench/results/replay-instructions.json. Needs valgrind; the service is about 50 times slower
 * under it, so a build takes about a minute. `--quick` (CI's smoke run): 200 replays.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ensureBuilt } from '../test/global-setup.ts';
import { freePort } from '../test/harness/ports.ts';
import { benchTemplate, startPlaten } from './platen-service.ts';

let replays = 2000;
const dists: string[] = [];
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i] as string;
  if (arg === '--replays') replays = Number(process.argv[++i]);
  else if (arg === '--quick') replays = 200;
  else dists.push(arg);
}
if (dists.length === 0) dists.push('dist');
if (dists.includes('dist')) ensureBuilt();
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('replay-instructions: valgrind is not installed (apt-get install valgrind)');
  process.exit(1);
}

/** Callgrind's count in each thread's dump file: `<out>.<pid>.1-<thread>`, thread 01 the main one. */
function counted(folder: string): { mainThread: number; allThreads: number } {
  let mainThread = 0;
  let allThreads = 0;
  for (const file of readdirSync(folder).filter((name) => /\.1-\d+$/.test(name))) {
    const total = Number(/^totals: (\d+)$/m.exec(readFileSync(join(folder, file), 'utf8'))?.[1] ?? 0);
    allThreads += total;
    if (file.endsWith('-01')) mainThread = total;
  }
  return { mainThread, allThreads };
}

async function measure(dist: string) {
  const folder = mkdtempSync(join(tmpdir(), 'platen-callgrind-'));
  const wrapper = [
    'valgrind',
    '-q',
    '--tool=callgrind',
    '--instr-atstart=no',
    '--separate-threads=yes',
    `--callgrind-out-file=${folder}/callgrind.%p`,
  ];
  const started = await startPlaten(await freePort(), dist, { wrapper, startTimeoutMs: 600_000 }).catch(
    (error: unknown) => {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    },
  );
  const { base, child } = started;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const { key, url, post } = await benchTemplate(base);
    const body = JSON.stringify({ format: 'jpeg', idempotencyKey: 'replay' });
    await post(url.slice(base.length), JSON.parse(body));
    const run = async (amount: number) => {
      const result = await autocannon({
        url,
        method: 'POST',
        connections: 8,
        amount,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${dist}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    };
    await run(8 * replays);
    const pid = String(child.pid);
    execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
    await run(replays);
    execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--instr=off', pid], { stdio: 'ignore' });
    const { mainThread, allThreads } = counted(folder);
    if (mainThread === 0) throw new Error(`${dist}: callgrind counted nothing in ${folder}`);
    return {
      build: dist,
      replays,
      mainThreadPerReplay: Math.round(mainThread / replays),
      allThreadsPerReplay: Math.round(allThreads / replays),
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(folder, { recursive: true, force: true });
  }
}

const rows = [];
for (const dist of dists) rows.push(await measure(dist));
console.table(rows);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/replay-instructions.json',
  `${JSON.stringify({ measuredAt: new Date().toISOString(), rows }, null, 2)}\n`,
);
