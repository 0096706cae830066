/** Resident memory figures from /proc (Linux), for the benchmarks' memory columns. */
import { readdirSync, readFileSync } from 'node:fs';

export function statusMb(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Peak RSS of each child of `parent` (render processes: the pool forks nothing else). */
export function childPeaksMb(parent: number): number[] {
  return childrenMb(parent, 'VmHWM');
}

/** The processes whose parent is `parent` now. */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) children.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return children;
}

/** Reads a figure of a process that may have exited meanwhile (then it counts as 0). */
function ofLiving(pid: number, read: (pid: number) => number): number {
  try {
    return read(pid);
  } catch {
    return 0;
  }
}

/** A memory figure of each child of `parent`. */
export function childrenMb(parent: number, field: 'VmRSS' | 'VmHWM'): number[] {
  return childrenOf(parent).map((pid) => ofLiving(pid, (child) => statusMb(child, field)));
}

/** CPU time (user + system, all threads) a process has used so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (as cpuMs) the children of `parent` have used so far: its render processes. */
export function childrenCpuMs(parent: number): number {
  return childrenOf(parent).reduce((sum, pid) => sum + ofLiving(pid, cpuMs), 0);
}
