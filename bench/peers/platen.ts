/**
 * Platen's real service for the benchmarks: `node --enable-source-maps dist/main.js` (built from
 * the sources first when they are newer) on loopback with a fresh data directory, no render rate
 * limit and no bootstrap; a workspace, an API key, the benchmark photo as an asset and the
 * benchmark post (designs.ts benchDocument) as a template.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../../test/global-setup.ts';
import { freePort } from '../../test/harness/ports.ts';
import { benchDocument } from '../designs.ts';
import { serviceNodeFlags } from '../platen-service.ts';
import { asChild, type Child } from './spawn.ts';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** A running service the benchmark can render through: its template shows the benchmark photo. */
export interface PlatenTarget {
  base: string;
  /** An API key with template:write, render:write and asset:write. */
  key: string;
  /** A template holding benchDocument(`asset:<benchmark photo>`). */
  templateId: string;
}

export interface PlatenService extends PlatenTarget, Child {
  workspaceId: string;
  photoId: string;
  dataDir: string;
}

/** Starts the service in its own process and answers once /healthz does. */
export async function startPlatenProcess(port?: number) {
  ensureBuilt();
  const listen = port ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'platen-bench-'));
  const base = `http://127.0.0.1:${listen}`;
  const child = spawn(process.execPath, [...serviceNodeFlags(), '--enable-source-maps', 'dist/main.js'], {
    env: {
      ...process.env,
      PORT: String(listen),
      PLATEN_HOST: '127.0.0.1',
      PLATEN_BASE_URL: base,
      PLATEN_DATA_DIR: dataDir,
      PLATEN_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      PLATEN_LOG_LEVEL: 'warn',
      PLATEN_RENDER_RATE_LIMIT: '0',
      PLATEN_BOOTSTRAP: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const handle = asChild('platen', child);
  const stop = async (graceMs?: number) => {
    await handle.stop(graceMs);
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { ...handle, stop, base, dataDir };
    } catch {
      // still starting
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error('Platen did not start');
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Uploads a JPEG as an asset; answers its id. */
export async function uploadPlatenAsset(
  target: Pick<PlatenTarget, 'base' | 'key'>,
  bytes: Uint8Array<ArrayBuffer>,
) {
  const response = await fetch(`${target.base}/v1/assets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'image/jpeg' },
    body: bytes,
  });
  return (await json<{ id: string }>(response)).id;
}

/** The service started, with a workspace, key, the photo as an asset and the benchmark template. */
export async function startPlaten(photo: Uint8Array<ArrayBuffer>, port?: number): Promise<PlatenService> {
  const service = await startPlatenProcess(port);
  try {
    const admin = { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const { base } = service;
    const workspace = await json<{ id: string }>(
      await fetch(`${base}/admin/v1/workspaces`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'bench', credits: 100_000_000 }),
      }),
    );
    const { key } = await json<{ key: string }>(
      await fetch(`${base}/admin/v1/workspaces/${workspace.id}/api-keys`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ scopes: ['template:write', 'template:read', 'render:write', 'asset:write'] }),
      }),
    );
    const photoId = await uploadPlatenAsset({ base, key }, photo);
    const template = await json<{ id: string }>(
      await fetch(`${base}/v1/templates`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench', document: benchDocument(`asset:${photoId}`) }),
      }),
    );
    return { ...service, key, workspaceId: workspace.id, photoId, templateId: template.id };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

export interface PlatenRenderBody {
  format: 'png' | 'jpeg';
  quality?: number;
  modifications: Record<string, string>;
}

/** One render through the route: it answers (JSON with the file's URL) once the file is stored. */
export async function renderOnPlaten(target: PlatenTarget, body: PlatenRenderBody) {
  const response = await fetch(`${target.base}/v1/templates/${target.templateId}/render`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return json<{ url: string; byteSize: number; credits: { charged: number } }>(response);
}
