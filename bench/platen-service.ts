/**
 * The real Platen service for a benchmark: a compiled build (`dist`, or an earlier build copied
 * inside the repository) on a port, on a new data directory, with the rate limit off and no
 * bootstrap, answering once `/healthz` does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Node flags for the benchmarked service from `BENCH_SERVICE_FLAGS`, e.g.
 * `BENCH_SERVICE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` to profile it under the load.
 */
export function serviceNodeFlags(): string[] {
  return process.env.BENCH_SERVICE_FLAGS?.split(' ').filter(Boolean) ?? [];
}

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

export async function startPlaten(
  port: number,
  dist = 'dist',
): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [...serviceNodeFlags(), '--enable-source-maps', join(dist, 'main.js')],
    {
      env: {
        ...process.env,
        PORT: String(port),
        PLATEN_DATA_DIR: mkdtempSync(join(tmpdir(), 'platen-bench-')),
        PLATEN_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
        PLATEN_LOG_LEVEL: 'warn',
        PLATEN_RENDER_RATE_LIMIT: '0',
        PLATEN_BOOTSTRAP: 'false',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (res) => res.ok,
        () => false,
      )
    )
      return { base, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`the service in ${dist} did not start`);
}
