/**
 * Waiting for a quiet machine before a timed request, so that what one contender leaves running
 * after it answered (Chromium's compositor and garbage collection, a render process's collector,
 * a thread pool winding down) is not timed as part of the next contender's request.
 *
 * The CPU time is read from the cgroup's accounting at the hierarchy's root: cgroup v1's
 * `cpuacct.usage` (nanoseconds, exact) or cgroup v2's `cpu.stat` `usage_usec` (summed from per-CPU
 * counters that may move a timer tick at a time, so a quiet window there means no tick was
 * charged). In a container the root is the container's own cgroup, which still holds every
 * contender. The driver's own CPU time is left out. Without either file, nothing is waited for, and
 * `available` says so; on a machine that never goes quiet, waiting stops after a few give-ups in a
 * row (`abandoned`), and the requests are timed back to back from then on.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const SOURCES: { path: string; nanos: (text: string) => number }[] = [
  { path: '/sys/fs/cgroup/cpuacct/cpuacct.usage', nanos: (text) => Number(text.trim()) },
  {
    path: '/sys/fs/cgroup/cpu.stat',
    nanos: (text) => Number(/^usage_usec (\d+)$/m.exec(text)?.[1] ?? Number.NaN) * 1_000,
  },
];

function machineCpuReader(): (() => number) | null {
  for (const source of SOURCES) {
    try {
      const value = source.nanos(readFileSync(source.path, 'utf8'));
      if (Number.isFinite(value) && value > 0) return () => source.nanos(readFileSync(source.path, 'utf8'));
    } catch {
      // Not this hierarchy: try the next.
    }
  }
  return null;
}

export interface QuietOptions {
  /** The window that must be quiet (default 20 ms). */
  windowMs?: number;
  /** The CPU time, summed over every core, a quiet window may hold (default 5 % of one core). */
  busyShare?: number;
  /** Gives up waiting after this long and goes on (default 1 s); `timedOut` counts it. */
  timeoutMs?: number;
  /** After this many give-ups in a row the machine is taken as never quiet (default 3). */
  maxTimeoutsInRow?: number;
}

export interface Settled {
  /** How long the wait took, the final quiet window included. */
  waitedMs: number;
  /** Whether it gave up at the time limit (or waiting was abandoned before it). */
  timedOut: boolean;
}

export interface QuietMachine {
  /** Whether the machine's CPU time can be read here; when not, `settle` returns at once. */
  available: boolean;
  readonly windowMs: number;
  /** Waits until a whole window has been quiet. */
  settle(): Promise<Settled>;
  /** How many waits gave up at the time limit. */
  timedOut: number;
  /** Set after `maxTimeoutsInRow` give-ups in a row: `settle` no longer waits. */
  abandoned: boolean;
}

/** The CPU time this process used, in nanoseconds: the driver's own, left out of a window. */
const ownCpuNs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1_000;
};

export function quietMachine(options: QuietOptions = {}): QuietMachine {
  const windowMs = options.windowMs ?? 20;
  const allowedNs = windowMs * 1e6 * (options.busyShare ?? 0.05);
  const timeoutMs = options.timeoutMs ?? 1_000;
  const maxInRow = options.maxTimeoutsInRow ?? 3;
  const read = machineCpuReader();
  let inRow = 0;
  const machine: QuietMachine = {
    available: read !== null,
    windowMs,
    timedOut: 0,
    abandoned: false,
    async settle() {
      if (!read || machine.abandoned) return { waitedMs: 0, timedOut: machine.abandoned };
      const started = performance.now();
      for (;;) {
        const [before, ownBefore] = [read(), ownCpuNs()];
        await sleep(windowMs);
        const busy = read() - before - (ownCpuNs() - ownBefore);
        if (busy <= allowedNs) {
          inRow = 0;
          return { waitedMs: performance.now() - started, timedOut: false };
        }
        if (performance.now() - started > timeoutMs) {
          machine.timedOut++;
          if (++inRow >= maxInRow) machine.abandoned = true;
          return { waitedMs: performance.now() - started, timedOut: true };
        }
      }
    },
  };
  return machine;
}
