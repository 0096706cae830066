/**
 * A kill -9 of the service in the middle of video renders loses nothing (issue "Motion"; the
 * contract's "Credits and identical renders"): with real processes on the embedded database, a
 * video the request waited for and one accepted in the background are both encoding (their ffmpeg
 * processes are running) when the service is killed; its render processes and encoders go with
 * it. After the restart the waited-for one is refunded and the background one is rendered again,
 * whole, and charged once: the ledger explains the balance.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServiceProcess, startService } from './harness/process.ts';
import { ADMIN_TOKEN, bearer, http, workspaceWithKey } from './harness/server.ts';
import { eventually } from './harness/webhooks.ts';
import { animatedDocument, animatedPage, probeVideo } from './render-video-fixtures.ts';

interface Process {
  pid: number;
  ppid: number;
  args: string;
}

/** A process and all it started: npm, node, the render processes (their own groups), their ffmpeg runs. */
function processTree(root: number): Process[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3] ?? '' }));
  const tree: Process[] = [];
  const members = new Set([root]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const entry of table) {
      if (members.has(entry.ppid) && !members.has(entry.pid)) {
        members.add(entry.pid);
        tree.push(entry);
        grown = true;
      }
    }
  }
  return tree;
}

const encoders = (tree: Process[]) => tree.filter((entry) => /ffmpeg/.test(entry.args.split(/\s/)[0] ?? ''));

/** Whether a process is still running (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return state !== '' && !state.startsWith('Z');
  } catch {
    return false;
  }
}

/** Every file the service stored under `files/renders`, by path. */
function renderFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'files', 'renders'), { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
}

const linux = process.platform === 'linux';

describe.skipIf(!linux)(
  `video renders across a kill -9${linux ? '' : ' (skipped: reads the process table as Linux ps prints it)'}`,
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'platen-video-crash-'));
    let service: ServiceProcess | undefined;
    afterAll(async () => {
      await service?.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('refunds the waited-for video and renders the background one again, charged once', async () => {
      const env = {
        PLATEN_DATA_DIR: dataDir,
        PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
        PLATEN_BOOTSTRAP: 'false',
        PLATEN_RENDER_RATE_LIMIT: '0',
        // Two videos at once, and a synchronous limit as long as a video's: both encode side by side.
        PLATEN_RENDER_WORKERS: '2',
        PLATEN_VIDEO_CONCURRENCY: '2',
        PLATEN_RENDER_TIMEOUT_MS: '120000',
        PLATEN_VIDEO_TIMEOUT_MS: '120000',
      };
      service = await startService(env);
      const { workspaceId, key } = await workspaceWithKey(service.base, { credits: 10 });
      // 20 s at 30 fps: 600 frames of 640×360, long enough to be caught encoding.
      const created = await http(service.base, 'POST', '/v1/templates', {
        body: {
          name: 'long',
          document: animatedDocument([animatedPage('p1', { width: 640, height: 360, durationMs: 20_000 })]),
        },
        headers: bearer(key),
      });
      expect(created.status).toBe(201);
      const path = `/v1/templates/${created.json.id}/render`;
      const waited = http(service.base, 'POST', path, {
        body: { format: 'mp4', fps: 30 },
        headers: bearer(key),
      }).catch(() => null);
      const accepted = await http(service.base, 'POST', path, {
        body: { format: 'webm', fps: 30, async: true },
        headers: bearer(key),
      });
      expect([accepted.status, accepted.json.credits.charged]).toEqual([202, 1]);
      const root = service.child.pid ?? 0;
      let tree: Process[] = [];
      await eventually(
        () => {
          tree = processTree(root);
          return encoders(tree).length >= 2;
        },
        60_000,
        () => `processes: ${JSON.stringify(tree)}`,
      );
      await service.stop('SIGKILL');
      // The request waited for died with the service: no answer.
      expect(await waited).toBeNull();
      // Nothing of it runs on: the render processes and their encoders follow the service out.
      await eventually(
        () => tree.every((entry) => !alive(entry.pid)),
        15_000,
        () => `still running: ${JSON.stringify(tree.filter((entry) => alive(entry.pid)))}`,
      );

      service = await startService(env);
      const base = service.base;
      const asyncId = accepted.json.id as string;
      let renders: Array<{ id: string; status: string; format: string }> = [];
      await eventually(async () => {
        renders = (await http(base, 'GET', '/v1/renders?limit=20', { headers: bearer(key) })).json.items;
        return renders.length === 2 && renders.every((render) => render.status !== 'pending');
      }, 120_000);
      const background = renders.find((render) => render.id === asyncId);
      const synchronous = renders.find((render) => render.id !== asyncId);
      expect(background).toMatchObject({ status: 'done', format: 'webm' });
      expect(synchronous).toMatchObject({ status: 'failed', format: 'mp4' });

      // The background video is whole: every frame, its full length.
      const result = (await http(base, 'GET', `/v1/renders/${asyncId}`, { headers: bearer(key) })).json;
      expect(result).toMatchObject({ format: 'webm', frames: 600, durationMs: 20_000 });
      const file = await fetch(result.url);
      expect(file.status).toBe(200);
      const probe = await probeVideo(new Uint8Array(await file.arrayBuffer()));
      expect(probe).toMatchObject({ codec: 'vp9', width: 640, height: 360, frames: 600 });

      // Ledger: the grant, two charges, one refund (the waited-for video's); balance 10 - 1.
      const ledger = await http(base, 'GET', `/admin/v1/workspaces/${workspaceId}/ledger`, {
        headers: bearer(ADMIN_TOKEN),
      });
      const entries = ledger.json.items as Array<{ delta: number; renderId: string | null }>;
      expect(entries.map((entry) => entry.delta).sort((a, b) => a - b)).toEqual([-1, -1, 1, 10]);
      expect(entries.find((entry) => entry.delta === 1)?.renderId).toBe(synchronous?.id);
      const workspace = await http(base, 'GET', `/admin/v1/workspaces/${workspaceId}`, {
        headers: bearer(ADMIN_TOKEN),
      });
      expect(workspace.json.creditBalance).toBe(9);
      // Only the finished video is stored; nothing of the refunded one was left behind.
      const stored = renderFiles(dataDir).filter((name) => /\.(mp4|webm)$/.test(name));
      expect(stored).toHaveLength(1);
      expect(stored[0]).toContain(asyncId);
    }, 300_000);
  },
);
