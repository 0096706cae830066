/**
 * `npm run soak`: one instance on the embedded default under the mixed load (bench/load/mix.ts) at
 * the documented capacity (250 operations/s) for 10 minutes. Afterwards: zero errors, resident memory flat (no growth
 * trend after warm-up, service and render processes), file descriptors (files and sockets) flat, and the store and
 * files consistent (bench/load/checks.ts). Prints a table, writes bench/results/soak.json, exits 1
 * when a check fails. `--quick` runs 45 seconds at 100/s (CI); `--minutes N` and `--rate R` override.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderFileStore, folderRoot } from '../src/files/index.ts';
import { openStore } from '../src/store/index.ts';
import { startReceiver } from '../src/webhooks/testing/receiver.ts';
import { freePort } from '../test/harness/ports.ts';
import { checkConsistency, type Finding } from './load/checks.ts';
import { ADMIN, type ProcessSample, sample, startInstance } from './load/instance.ts';
import { CAPACITY, MIX, type Op, percentile, prepareLoad, runLoad } from './load/mix.ts';
import { drained, trend } from './load/settle.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const quick = process.argv.includes('--quick');
// The quick mode (CI, a shared machine) runs at 100/s: it checks correctness and leaks, not capacity.
const rate = Number(arg('rate') ?? (quick ? 100 : CAPACITY));
const seconds = Math.round(Number(arg('minutes') ?? (quick ? 0.75 : 10)) * 60);

const dataDir = mkdtempSync(join(tmpdir(), 'platen-soak-'));
const receiver = await startReceiver(() => ({ status: 200 }));
const instance = await startInstance(await freePort(), { PLATEN_DATA_DIR: dataDir });
const pid = instance.child.pid ?? 0;
const ctx = await prepareLoad(instance.base, ADMIN, receiver.url('/soak'));
receiver.secrets.set('/soak', ctx.webhookSecret);

process.stdout.write(`soak: ${rate} operations/s for ${seconds} s against ${instance.base} (pid ${pid})\n`);
const samples: ProcessSample[] = [];
const run = await runLoad({
  base: () => instance.base,
  ctx,
  rate,
  seconds,
  onSecond: (second) => {
    if (second % 5 === 0) samples.push(sample(pid, second));
    if (second > 0 && second % 60 === 0) process.stdout.write(`  ${second} s\n`);
  },
});
await drained(instance.base, ADMIN, 60_000);
samples.push(sample(pid, seconds));

instance.child.kill('SIGTERM');
const exitCode = await instance.exited;
const store = await openStore({ dataDir });
const files = new FolderFileStore(folderRoot(dataDir));
const received = new Map(
  receiver.requests.filter((r) => r.verified && r.status === 200).map((r) => [r.messageId, r.body]),
);
const findings: Finding[] = await checkConsistency({
  store,
  files,
  workspaceId: ctx.workspaceId,
  acked: run.acked,
  received,
});
await store.close();
await receiver.close();

// Memory: the least-squares slope after the warm-up (caches fill, JIT settles): the first fifth of
// a 10-minute run, the first half of a 45-second quick one.
const settled = samples.filter((s) => s.at >= seconds / (quick ? 2 : 5));
const serviceTrend = trend(settled.map((s) => [s.at / 60, s.serviceMb]));
const renderTrend = trend(settled.map((s) => [s.at / 60, s.renderProcessesMb]));
const fileFdTrend = trend(settled.map((s) => [s.at / 60, s.fileFds]));
const socketTrend = trend(settled.map((s) => [s.at / 60, s.socketFds]));
const minutes = seconds / 60;
const totalErrors = Object.values(run.stats).reduce((sum, s) => sum + s.errors, 0);
// Flat: the trend projects less growth over the whole run than a tenth of the level (and 40 MB).
const flat = (t: { slope: number; mean: number }) => t.slope * minutes < Math.max(40, t.mean * 0.1);
findings.push(
  { check: 'zero errors', ok: totalErrors === 0, detail: `${totalErrors} errors` },
  rateCheck(),
  { check: 'service RSS flat', ok: flat(serviceTrend), detail: describe(serviceTrend, 'MB') },
  // The render processes' caches (up to their share of 640 MB, docs/configuration.md#caches) fill
  // for minutes: in 45 s their growth cannot be told from a leak (CI's quick runs saw 19-67 MB over
  // the last half, a quiet one none). The quick run shows the trend; the 10-minute run judges it.
  quick
    ? {
        check: 'render processes RSS flat',
        ok: true,
        detail: `not judged in a quick run (caches still fill): ${describe(renderTrend, 'MB')}`,
      }
    : { check: 'render processes RSS flat', ok: flat(renderTrend), detail: describe(renderTrend, 'MB') },
  // Files and pipes must not grow at all; sockets follow the connections open at each sample
  // (the generator's keep-alive pool, webhook deliveries), so they are flat like memory: a
  // leaked socket per operation would add thousands, far above a quarter of the level.
  {
    check: 'file descriptors flat',
    ok: fileFdTrend.slope * minutes < 10,
    detail: describe(fileFdTrend, 'fds'),
  },
  {
    check: 'sockets flat',
    ok: socketTrend.slope * minutes < Math.max(20, socketTrend.mean * 0.25),
    detail: describe(socketTrend, 'sockets'),
  },
  { check: 'clean exit on SIGTERM', ok: exitCode === 0, detail: `exit ${exitCode}` },
);

const rows = (Object.keys(MIX) as Op[]).map((op) => {
  const s = run.stats[op];
  return {
    op,
    count: s.count,
    errors: s.errors,
    p50: percentile(s.latencies, 0.5),
    p99: percentile(s.latencies, 0.99),
    lastError: s.lastError,
  };
});
console.table(rows);
console.table(findings);
const result = { when: new Date().toISOString(), rate, seconds, quick, operations: rows, samples, findings };
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/soak${quick ? '-quick' : ''}.json`, `${JSON.stringify(result, null, 2)}\n`);
rmSync(dataDir, { recursive: true, force: true });
const failed = findings.filter((f) => !f.ok);
process.stdout.write(
  failed.length ? `soak FAILED: ${failed.map((f) => f.check).join('; ')}\n` : 'soak passed\n',
);
process.exit(failed.length ? 1 : 0);

/**
 * The full soak claims the capacity: nothing may be shed. The quick run checks correctness and
 * leaks on CI's shared two cores, near their capacity at 100/s (thumbnails render beside the fresh
 * renders): a moment's stall there sheds a burst. Four quick runs on a quiet machine shed 5 to 52 of
 * 4,500 (the build of the day before too), a busy CI run 60. So the quick run judges that the
 * service kept answering, at most 5% shed: a service that stops answering sheds everything after
 * 64 requests in flight. The operations it did start must still all be right.
 */
function rateCheck(): Finding {
  const started = Object.values(run.stats).reduce((sum, s) => sum + s.count, 0) + run.shed;
  const allowed = quick ? Math.floor(started * 0.05) : 0;
  return {
    check: quick ? 'the service kept answering (at most 5% shed)' : 'the rate was met (nothing shed)',
    ok: run.shed <= allowed,
    detail: `${run.shed} shed of ${started}`,
  };
}

function describe(t: { slope: number; mean: number; first: number; last: number }, unit: string): string {
  return `${t.first} → ${t.last} ${unit}, slope ${t.slope.toFixed(2)} ${unit}/min, mean ${t.mean.toFixed(0)}`;
}
