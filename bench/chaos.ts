/**
 * `npm run chaos`: three instances on one PostgreSQL (a schema of their own) and one shared file
 * folder, behind a round-robin balancer, under the soak's load (the same mix and rate, 10 minutes);
 * every 30 s one instance is killed with SIGKILL and started again. Afterwards, with the orphan sweep and webhook leases given
 * time to act: no acknowledged write is lost, credits add up exactly against the ledger, no webhook
 * event is lost, no render stays pending (bench/load/checks.ts). Errors while an instance dies are
 * expected (502 from the balancer) and counted, not judged. Prints a table, writes
 * bench/results/chaos.json, exits 1 when a check fails.
 * PostgreSQL: DATABASE_URL, else PLATEN_TEST_DATABASE_URL. `--quick`: 40 s, a kill every 10 s (CI).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { AuditTrail } from '../src/audit/index.ts';
import { randomBase62 } from '../src/core/ids.ts';
import { createLogger } from '../src/core/logger.ts';
import { CreditService } from '../src/credits/service.ts';
import { FolderFileStore, folderRoot } from '../src/files/index.ts';
import { RenderMaintenance } from '../src/renders/index.ts';
import { openStore } from '../src/store/index.ts';
import { startReceiver } from '../src/webhooks/testing/receiver.ts';
import { urlWithSchema } from '../test/harness/backends.ts';
import { startBalancer } from '../test/harness/balancer.ts';
import { freePort } from '../test/harness/ports.ts';
import { checkConsistency } from './load/checks.ts';
import { ADMIN, type Instance, startInstance } from './load/instance.ts';
import { CAPACITY, MIX, type Op, percentile, prepareLoad, runLoad } from './load/mix.ts';

const quick = process.argv.includes('--quick');
const seconds = quick ? 40 : 600;
const killEverySeconds = quick ? 10 : 30;
const rate = quick ? 60 : CAPACITY;
const databaseUrl = process.env.DATABASE_URL ?? process.env.PLATEN_TEST_DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('chaos: set DATABASE_URL (or PLATEN_TEST_DATABASE_URL) to a PostgreSQL database\n');
  process.exit(2);
}

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(text).finally(() => client.end());
}

const schema = `chaos_${randomBase62(10).toLowerCase()}`;
await admin(`CREATE SCHEMA "${schema}"`);
const dataDir = mkdtempSync(join(tmpdir(), 'platen-chaos-'));
const env = {
  DATABASE_URL: urlWithSchema(databaseUrl, schema),
  PLATEN_DATA_DIR: dataDir,
  PLATEN_RENDER_WORKERS: '1',
  // A killed instance's webhook attempts are retried once their lease ends: short, to settle soon.
  PLATEN_WEBHOOK_TIMEOUT_MS: '5000',
  PLATEN_WEBHOOK_LEASE_MS: '8000',
};
const ports = [await freePort(), await freePort(), await freePort()];
const balancer = await startBalancer();
const instances: Instance[] = await Promise.all(
  ports.map((port) => startInstance(port, { ...env, PLATEN_BASE_URL: balancer.base })),
);
balancer.targets.push(...instances.map((i) => i.base));
const receiver = await startReceiver(() => ({ status: 200 }));
const ctx = await prepareLoad(balancer.base, ADMIN, receiver.url('/chaos'));
receiver.secrets.set('/chaos', ctx.webhookSecret);

const kills: { at: number; port: number; restartMs: number }[] = [];
let killing: Promise<void> = Promise.resolve();
process.stdout.write(
  `chaos: ${rate} operations/s for ${seconds} s over 3 instances, SIGKILL every ${killEverySeconds} s\n`,
);
const run = await runLoad({
  base: () => balancer.base,
  ctx,
  rate,
  seconds,
  onSecond: (second) => {
    if (second === 0 || second % killEverySeconds !== 0) return;
    const index = kills.length % instances.length;
    killing = killing.then(() => killAndRestart(index, second));
  },
});
await killing;

async function killAndRestart(index: number, second: number): Promise<void> {
  const victim = instances[index];
  const port = ports[index];
  if (!victim || port === undefined) return;
  victim.child.kill('SIGKILL');
  await victim.exited;
  const started = performance.now();
  instances[index] = await startInstance(port, { ...env, PLATEN_BASE_URL: balancer.base });
  kills.push({ at: second, port, restartMs: Math.round(performance.now() - started) });
  process.stdout.write(`  ${second} s: killed and restarted the instance on ${port}\n`);
}

// Settle: the killed instances' pending renders are refunded once their heartbeat is stale (30 s)
// by the next sweep (15 s); their webhook rows are sent again when their lease ends.
const store = await openStore({ dataDir, databaseUrl: env.DATABASE_URL });
const settleDeadline = Date.now() + 120_000;
for (;;) {
  const db = store.handle.db;
  const pending = await db.selectFrom('renders').select('id').where('status', '=', 'pending').execute();
  const outbox = await db
    .selectFrom('webhook_outbox')
    .select('id')
    .where('status', '!=', 'delivered')
    .execute();
  if ((pending.length === 0 && outbox.length === 0) || Date.now() > settleDeadline) break;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}
await new Promise((resolve) => setTimeout(resolve, 2_000)); // thumbnails of the last saves
for (const instance of instances) instance.child.kill('SIGTERM');
await Promise.all(instances.map((instance) => instance.exited));

const received = new Map(
  receiver.requests.filter((r) => r.verified && r.status === 200).map((r) => [r.messageId, r.body]),
);
const files = new FolderFileStore(folderRoot(dataDir));
// A kill between writing a file and recording it leaves the file behind; the hourly orphan-file
// sweep removes such files once an hour old. Run here with no margin (every instance is stopped).
const sweeper = new RenderMaintenance({
  store,
  credits: new CreditService(store, new AuditTrail(store)),
  files,
  instanceId: 'ins_chaos_check',
  logger: createLogger('silent'),
  retentionDays: 0,
  singleInstance: false,
  orphanFileMarginMs: 0,
});
const sweptFiles = await sweeper.sweepOrphanFiles(new Date(Date.now() + 1_000));
const findings = await checkConsistency({
  store,
  files,
  workspaceId: ctx.workspaceId,
  acked: run.acked,
  received,
});
// A webhook message may arrive twice (at least once: a kill between the POST and its record).
const duplicates = receiver.requests.filter((r) => r.seen > 0).length;
await store.close();
await receiver.close();
await balancer.close();
await admin(`DROP SCHEMA "${schema}" CASCADE`);
rmSync(dataDir, { recursive: true, force: true });

const rows = (Object.keys(MIX) as Op[]).map((op) => {
  const s = run.stats[op];
  return {
    op,
    count: s.count,
    errors: s.errors,
    p50: percentile(s.latencies, 0.5),
    p99: percentile(s.latencies, 0.99),
  };
});
console.table(rows);
console.table(kills);
console.table(findings);
const served = balancer.served;
const result = {
  when: new Date().toISOString(),
  rate,
  seconds,
  quick,
  kills,
  served,
  duplicates,
  sweptFiles,
  shed: run.shed,
  operations: rows,
  findings,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/chaos${quick ? '-quick' : ''}.json`, `${JSON.stringify(result, null, 2)}\n`);
const failed = findings.filter((f) => !f.ok);
process.stdout.write(
  `requests per instance: ${served.join(', ')}; webhook duplicates: ${duplicates}; files left by kills and swept: ${sweptFiles}; shed: ${run.shed}\n` +
    (failed.length ? `chaos FAILED: ${failed.map((f) => f.check).join('; ')}\n` : 'chaos passed\n'),
);
process.exit(failed.length ? 1 : 0);
