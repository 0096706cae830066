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

/** A memory figure of each child of `parent`. */
export function childrenMb(parent: number, field: 'VmRSS' | 'VmHWM'): number[] {
  const figures: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent)
        figures.push(statusMb(Number(name), field));
    } catch {
      // exited meanwhile
    }
  }
  return figures;
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
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent)
        total += cpuMs(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return total;
}
