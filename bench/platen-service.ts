/**
 * The real Platen service for a benchmark: a compiled build (`dist`, or an earlier build copied
 * inside the repository) on a port, on a new data directory, with the rate limit off and no
 * bootstrap, answering once `/healthz` does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDocument, photoJpeg } from './designs.ts';

/**
 * Node flags for the benchmarked service from `BENCH_SERVICE_FLAGS`, e.g.
 * `BENCH_SERVICE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` to profile it under the load.
 */
export function serviceNodeFlags(): string[] {
  return process.env.BENCH_SERVICE_FLAGS?.split(' ').filter(Boolean) ?? [];
}

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

export interface StartOptions {
  /** A command the service runs under, e.g. valgrind and its flags. */
  wrapper?: string[];
  /** How long the service may take to answer `/healthz` (default 30 s). */
  startTimeoutMs?: number;
}

export async function startPlaten(
  port: number,
  dist = 'dist',
  options: StartOptions = {},
): Promise<{ base: string; child: ChildProcess }> {
  const [command, ...wrapperArgs] = [...(options.wrapper ?? []), process.execPath];
  const child = spawn(
    command as string,
    [...wrapperArgs, ...serviceNodeFlags(), '--enable-source-maps', join(dist, 'main.js')],
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
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  while (Date.now() < deadline) {
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

/**
 * A workspace with credits, a key, the photo uploaded and the benchmark post as a template on a
 * started service: the render route's URL, the key, and a JSON `post` as that key.
 */
export async function benchTemplate(base: string) {
  const post = async (path: string, body: unknown, token: string, type = 'application/json') => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body: type === 'application/json' ? JSON.stringify(body) : Buffer.from(body as Uint8Array),
    });
    return (await res.json()) as { id: string; key: string };
  };
  const workspace = await post(
    '/admin/v1/workspaces',
    { name: 'bench', credits: 100_000_000 },
    BENCH_ADMIN_TOKEN,
  );
  const { key } = await post(
    `/admin/v1/workspaces/${workspace.id}/api-keys`,
    { scopes: ['template:write', 'render:write', 'asset:write'] },
    BENCH_ADMIN_TOKEN,
  );
  const photo = await post('/v1/assets', new Uint8Array(await photoJpeg()), key, 'image/jpeg');
  const template = await post(
    '/v1/templates',
    { name: 'bench', document: benchDocument(`asset:${photo.id}`) },
    key,
  );
  return {
    key,
    url: `${base}/v1/templates/${template.id}/render`,
    post: (path: string, body: unknown) => post(path, body, key),
  };
}
