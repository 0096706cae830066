/** Latency samples → median and p95, and a warm-up-then-measure loop, for every benchmark. */
export interface Stat {
  median: number;
  p95: number;
  n: number;
}

export function stat(samples: number[]): Stat {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { median: Number(at(0.5).toFixed(2)), p95: Number(at(0.95).toFixed(2)), n: sorted.length };
}

export async function timed(n: number, warm: number, fn: (i: number) => Promise<unknown>): Promise<Stat> {
  for (let i = 0; i < warm; i++) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return stat(samples);
}
