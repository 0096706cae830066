/**
 * A render over its time limit, on the real service (`npm start`): it fails alone with 422
 * RENDER_FAILED 'timeout', its credit is refunded, and it stops using the CPU. Native drawing
 * (Skia's SVG filters here) cannot be interrupted inside a thread, so this holds only because the
 * render runs in a process the pool kills; with worker threads the core stayed busy for the whole
 * render after the 422. CPU time is read from /proc for the service and every process under it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { type ServiceProcess, startService } from './harness/process.ts';
import { ADMIN_TOKEN, bearer, http } from './harness/server.ts';

const hasProc = existsSync('/proc/self/stat');

/** utime + stime (clock ticks) of each process, and its parent, from /proc/<pid>/stat. */
function processTable(): Map<number, { ppid: number; ticks: number }> {
  const table = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces and parentheses): state, ppid, … utime, stime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return table;
}

/** The process and all its descendants, with their CPU ticks. */
function treeTicks(root: number): Map<number, number> {
  const table = processTable();
  const tree = new Map<number, number>();
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    const entry = table.get(pid);
    if (!entry || tree.has(pid)) continue;
    tree.set(pid, entry.ticks);
    for (const [child, info] of table) if (info.ppid === pid) pending.push(child);
  }
  return tree;
}

/**
 * CPU seconds the tree uses over `ms`, sampled every 100 ms so a process that ends in between
 * still counts up to its last sample, and one that starts counts from zero.
 */
async function cpuSecondsOver(root: number, ms: number): Promise<{ seconds: number; perPid: object }> {
  const first = treeTicks(root);
  const last = new Map(first);
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    for (const [pid, ticks] of treeTicks(root)) last.set(pid, ticks);
  }
  const perPid = Object.fromEntries([...last].map(([pid, ticks]) => [pid, ticks - (first.get(pid) ?? 0)]));
  const ticks = Object.values(perPid).reduce((a: number, b: number) => a + b, 0);
  // Linux reports these fields in USER_HZ, 100 on every supported architecture.
  return { seconds: ticks / 100, perPid };
}

/**
 * Waits until the processes of the tree that `before` does not hold (the replacement the pool
 * starts after the kill) have finished starting: their CPU time stops moving for 300 ms. On a
 * busy machine loading the renderer can take longer than the second the test waits anyway; that
 * start is not the stopped render's work. Processes that were there before are not waited for.
 */
async function newProcessesSettled(root: number, before: Map<number, number>): Promise<void> {
  const end = Date.now() + 20_000;
  let previous = treeTicks(root);
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 300));
    const now = treeTicks(root);
    const moving = [...now].some(([pid, ticks]) => !before.has(pid) && previous.get(pid) !== ticks);
    if (!moving) return;
    previous = now;
  }
}

/**
 * Full-page Perlin noise plus a blur on a 2000×2000 page: each element takes Skia about 5 s of one
 * core. Several elements (each with its own seed, so no raster is reused) keep every single SVG
 * within the renderer's filter budget while the render as a whole runs for about 15 s.
 */
function expensiveDocument() {
  const svg = (seed: number) =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2000 2000"><filter id="f"><feTurbulence baseFrequency="0.01" numOctaves="100" seed="${seed}"/><feGaussianBlur stdDeviation="200"/></filter><rect width="2000" height="2000" filter="url(#f)"/></svg>`;
  return {
    schemaVersion: 1,
    pages: [
      {
        id: 'p1',
        width: 2000,
        height: 2000,
        background: '#ffffff',
        elements: [1, 2, 3].map((seed) => ({
          id: `noise${seed}`,
          type: 'svg',
          x: 0,
          y: 0,
          width: 2000,
          height: 2000,
          svg: svg(seed),
        })),
      },
    ],
  };
}

const started: ServiceProcess[] = [];
afterAll(async () => {
  for (const s of started) await s.stop('SIGKILL');
});

describe.skipIf(!hasProc)(
  `a render over its time limit${hasProc ? '' : ' (skipped: needs /proc to read CPU time, Linux only)'}`,
  () => {
    it('fails with 422 timeout, is refunded, and stops using the CPU within a second', async () => {
      const service = await startService({
        PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
        PLATEN_DATA_DIR: mkdtempSync(join(tmpdir(), 'platen-timeout-')),
        PLATEN_RENDER_RATE_LIMIT: '0',
        PLATEN_RENDER_TIMEOUT_MS: '2000',
        PLATEN_RENDER_WORKERS: '1',
        PLATEN_LOG_LEVEL: 'warn',
      });
      started.push(service);
      const root = service.child.pid as number;
      const adminHeaders = bearer(ADMIN_TOKEN);
      const ws = await http(service.base, 'POST', '/admin/v1/workspaces', {
        body: { name: 'slow', credits: 10 },
        headers: adminHeaders,
      });
      const key = await http(service.base, 'POST', `/admin/v1/workspaces/${ws.json.id}/api-keys`, {
        body: { scopes: ['template:write', 'render:write'] },
        headers: adminHeaders,
      });
      const headers = bearer(key.json.key);
      const slow = await http(service.base, 'POST', '/v1/templates', {
        body: { name: 'noise', document: expensiveDocument() },
        headers,
      });
      const small = await http(service.base, 'POST', '/v1/templates', {
        body: { name: 'small', document: simpleDocument() },
        headers,
      });
      expect([slow.status, small.status]).toEqual([201, 201]);
      const balance = async () =>
        (await http(service.base, 'GET', `/admin/v1/workspaces/${ws.json.id}`, { headers: adminHeaders }))
          .json.creditBalance as number;
      const before = await balance();
      const processesBefore = treeTicks(root);

      const failed = await http(service.base, 'POST', `/v1/templates/${slow.json.id}/render`, {
        body: {},
        headers,
      });
      expect([failed.status, failed.json.error.code, failed.json.error.details?.reason]).toEqual([
        422,
        'RENDER_FAILED',
        'timeout',
      ]);
      expect(await balance()).toBe(before);

      await new Promise((r) => setTimeout(r, 1000));
      await newProcessesSettled(root, processesBefore);
      const cpu = await cpuSecondsOver(root, 3000);
      // Every process of the tree counts, the replacement included; a render still running (in a
      // thread of the service, or in a process nobody killed) would show close to 3 s here.
      expect(cpu.seconds, JSON.stringify(cpu.perPid)).toBeLessThan(0.3);

      const ok = await http(service.base, 'POST', `/v1/templates/${small.json.id}/render`, {
        body: {},
        headers,
      });
      expect(ok.status).toBe(200);
      expect(await balance()).toBe(before - 1);
    }, 60_000);
  },
);
