/**
 * Waiting for a quiet machine before a timed request, so that what one contender leaves running
 * after it answered (Chromium's compositor and garbage collection, a render process's collector,
 * a thread pool winding down) is not timed as part of the next contender's request.
 *
 * The machine's CPU time is read from the cgroup's accounting, in nanoseconds: cgroup v1's
 * `cpuacct.usage` or cgroup v2's `cpu.stat` (`usage_usec`), at the hierarchy's root, which counts
 * every task the kernel runs here. Without either, nothing is waited for, and `available` says so.
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
}

export interface QuietMachine {
  /** Whether the machine's CPU time can be read here; when not, `settle` returns at once. */
  available: boolean;
  /** Waits until a whole window has been quiet; answers how long it waited. */
  settle(): Promise<number>;
  /** How many waits gave up at the time limit. */
  timedOut: number;
}

export function quietMachine(options: QuietOptions = {}): QuietMachine {
  const windowMs = options.windowMs ?? 20;
  const allowedNs = windowMs * 1e6 * (options.busyShare ?? 0.05);
  const timeoutMs = options.timeoutMs ?? 1_000;
  const read = machineCpuReader();
  const machine: QuietMachine = {
    available: read !== null,
    timedOut: 0,
    async settle() {
      if (!read) return 0;
      const started = performance.now();
      for (;;) {
        const before = read();
        await sleep(windowMs);
        if (read() - before <= allowedNs) return performance.now() - started;
        if (performance.now() - started > timeoutMs) {
          machine.timedOut++;
          return performance.now() - started;
        }
      }
    },
  };
  return machine;
}
