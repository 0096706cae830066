/**
 * The pool for real (render processes running the compiled entry, see entry.ts): renders match
 * in-process output, a full queue answers PoolOverloaded at once, a render past its deadline or
 * over the memory limit fails alone with RENDER_FAILED while the pool keeps serving, a process
 * grown over the recycling limit is replaced, a crashed process fails only its render, and render
 * processes do not outlive the pool's process, even one killed with SIGKILL mid-render.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDER_PROCESS_RESERVE_MB } from '../backends/cache-limits.ts';
import { PoolOverloaded, RenderError } from '../errors.ts';
import { jobFor, pageDocument } from '../goldens/harness.ts';
import { renderInProcess } from '../render.ts';
import type { RenderJob } from '../types.ts';
import { RenderPool } from './pool.ts';

let server: Server;
let hangUrl = '';

beforeAll(async () => {
  server = createServer(() => {
    // Never answers: a render waiting on this image runs until the pool's deadline.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hangUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow.png`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const quickJob = (): RenderJob =>
  jobFor(
    pageDocument({
      width: 200,
      height: 120,
      background: '#0f172a',
      elements: [
        {
          id: 't',
          type: 'text',
          x: 10,
          y: 10,
          width: 180,
          height: 100,
          text: 'Pooled',
          color: '#ffffff',
          fontSize: 40,
        },
      ],
    }),
  );

/** A 49-megapixel PNG: about 400 MB of canvas and pixel copy on top of the process's own ~150 MB. */
const hugeJob = (): RenderJob =>
  jobFor(pageDocument({ width: 7000, height: 7000, background: '#336699', elements: [] }), 'png');

const hasProc = existsSync('/proc/self/stat');

/** Live render processes started by `parent` (from /proc: Linux). */
function renderProcesses(parent = process.pid): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return state !== 'Z' && Number(ppid) === parent && cmdline.includes('render-process');
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}

const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, ms = 15_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

const hangingJob = (): RenderJob =>
  jobFor(
    pageDocument({
      width: 50,
      height: 50,
      elements: [{ id: 'slow', type: 'image', x: 0, y: 0, width: 50, height: 50, src: hangUrl }],
    }),
    'png',
    {
      allowPrivateUrls: true,
    },
  );

describe('RenderPool', () => {
  it('renders in a process exactly as in process', async () => {
    const pool = new RenderPool({ workers: 1 });
    try {
      const [pooled] = await pool.render(quickJob());
      const [local] = await renderInProcess(quickJob());
      expect(pooled?.width).toBe(200);
      expect(Buffer.from(pooled?.bytes ?? [])).toEqual(Buffer.from(local?.bytes ?? []));
      expect(pool.stats()).toMatchObject({ workers: 1, completed: 1, failed: 0, recycled: 0 });
    } finally {
      await pool.close();
    }
  });

  it('stages files in a folder, synced, with the bytes a render sends, and sends bytes after', async () => {
    const pool = new RenderPool({ workers: 1 });
    const dir = join(mkdtempSync(join(tmpdir(), 'platen-pool-')), 'staging');
    try {
      const [staged] = await pool.renderStaged(quickJob(), dir);
      const [local] = await renderInProcess(quickJob());
      expect(staged).toMatchObject({ width: 200, height: 120, mimeType: 'image/png' });
      expect(staged && 'bytes' in staged).toBe(false);
      expect(dirname(staged?.path ?? '')).toBe(dir);
      const bytes = readFileSync(staged?.path ?? '');
      expect(bytes).toEqual(Buffer.from(local?.bytes ?? []));
      expect(staged?.byteLength).toBe(bytes.length);
      // The same process answers the next render over the bulk pipe: nothing staged is left in it.
      const [sent] = await pool.render(quickJob());
      expect(Buffer.from(sent?.bytes ?? [])).toEqual(bytes);
      expect(readdirSync(dir)).toHaveLength(1);
      // The folder is made when missing, also after someone removed it under a running process.
      rmSync(dir, { recursive: true });
      const [again] = await pool.renderStaged(quickJob(), dir);
      expect(readFileSync(again?.path ?? '')).toEqual(bytes);
    } finally {
      await pool.close();
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });

  it("sends a template's render to the process that rendered it last, where its base is", async () => {
    const pool = new RenderPool({ workers: 2 });
    const bases = () => pool.cacheStats().find((cache) => cache.name === 'render-bases');
    try {
      await pool.warmup();
      // Two templates at once: one process each (the first takes A, the second B).
      await Promise.all([
        pool.render({ ...quickJob(), cacheKey: 'tpl_a' }),
        pool.render({ ...quickJob(), cacheKey: 'tpl_b' }),
      ]);
      const before = bases()?.hits ?? 0;
      // B alone: both processes are free, and B's goes where B's base is (a hit, not a new base).
      await pool.render({ ...quickJob(), cacheKey: 'tpl_b' });
      await pool.render({ ...quickJob(), cacheKey: 'tpl_a' });
      expect(bases()?.hits).toBe(before + 2);
    } finally {
      await pool.close();
    }
  });

  it('gives render processes cache budgets that fit under the recycling limit', async () => {
    const budgets = async (recycleRssMb: number) => {
      const pool = new RenderPool({ workers: 1, recycleRssMb });
      try {
        await pool.warmup();
        await pool.render(quickJob());
        return pool.cacheStats().find((cache) => cache.name === 'decoded-images')?.maxBytes;
      } finally {
        await pool.close();
      }
    };
    expect(await budgets(2000)).toBe(160 * 2 ** 20); // the default, whole
    expect(await budgets(600)).toBe(Math.floor(160 * ((600 - RENDER_PROCESS_RESERVE_MB) / 640) * 2 ** 20));
  });

  it('answers PoolOverloaded when the queue is full', async () => {
    const pool = new RenderPool({ workers: 1, maxQueue: 2, timeoutMs: 400 });
    try {
      await pool.warmup();
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => pool.render(hangingJob())));
      const overloaded = outcomes.filter(
        (o) => o.status === 'rejected' && o.reason instanceof PoolOverloaded,
      );
      expect(overloaded.length).toBeGreaterThanOrEqual(3);
      const first = overloaded[0];
      if (first?.status === 'rejected')
        expect(first.reason).toMatchObject({ code: 'OVERLOADED', status: 503 });
      expect(pool.stats().overloaded).toBe(overloaded.length);
    } finally {
      await pool.close();
    }
  });

  it('stops a render past its deadline without touching the others', async () => {
    const pool = new RenderPool({ workers: 2, timeoutMs: 1000 });
    try {
      await pool.warmup();
      const [slow, quick] = await Promise.allSettled([pool.render(hangingJob()), pool.render(quickJob())]);
      expect(quick.status).toBe('fulfilled');
      expect(slow.status).toBe('rejected');
      if (slow.status === 'rejected') {
        expect(slow.reason).toBeInstanceOf(RenderError);
        expect(slow.reason).toMatchObject({ code: 'RENDER_FAILED', details: { reason: 'timeout' } });
      }
      const [after] = await pool.render(quickJob());
      expect(after?.height).toBe(120);
      expect(pool.stats()).toMatchObject({ timedOut: 1, running: 0 });
    } finally {
      await pool.close();
    }
  });

  it('starts the deadline when a process takes the render, not while it waits in the queue', async () => {
    const pool = new RenderPool({ workers: 1, timeoutMs: 1000 });
    try {
      await pool.warmup();
      // The quick render waits behind the hanging one for its whole deadline, then for a new process.
      const [slow, quick] = await Promise.allSettled([pool.render(hangingJob()), pool.render(quickJob())]);
      expect(slow).toMatchObject({ status: 'rejected', reason: { details: { reason: 'timeout' } } });
      expect(quick.status).toBe('fulfilled');
    } finally {
      await pool.close();
    }
  });

  it('stops a render whose process grows over maxRssMb, and keeps serving', async () => {
    const pool = new RenderPool({ workers: 1, maxRssMb: 350 });
    try {
      await pool.warmup();
      const error = await pool.render(hugeJob()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RenderError);
      expect(error).toMatchObject({ code: 'RENDER_FAILED', details: { reason: 'out of memory' } });
      const [after] = await pool.render(quickJob());
      expect(after?.width).toBe(200);
      expect(pool.stats()).toMatchObject({ outOfMemory: 1, failed: 1, completed: 1 });
    } finally {
      await pool.close();
    }
  });

  it('replaces a process whose RSS is over recycleRssMb after a render', async () => {
    // Every process is over 1 MB, so each is replaced after its render; renders keep succeeding.
    const pool = new RenderPool({ workers: 1, recycleRssMb: 1 });
    try {
      const [first] = await pool.render(quickJob());
      const [second] = await pool.render(quickJob());
      expect([first?.width, second?.width]).toEqual([200, 200]);
      expect(pool.stats()).toMatchObject({ recycled: 2, completed: 2, failed: 0 });
    } finally {
      await pool.close();
    }
  });

  it.skipIf(!hasProc)(
    'fails only the render of a process that crashes, and replaces it (needs /proc)',
    async () => {
      const pool = new RenderPool({ workers: 1, timeoutMs: 30_000 });
      try {
        await pool.warmup();
        const [pid] = renderProcesses();
        if (pid === undefined) throw new Error('no render process found');
        const crashed = pool.render(hangingJob()).catch((e: unknown) => e);
        await until(() => pool.stats().running === 1);
        process.kill(pid, 'SIGSEGV');
        expect(await crashed).toMatchObject({ code: 'RENDER_FAILED', details: { reason: 'internal' } });
        const [after] = await pool.render(quickJob());
        expect(after?.height).toBe(120);
        expect(renderProcesses()).not.toContain(pid);
      } finally {
        await pool.close();
      }
    },
  );

  it.skipIf(!hasProc)('kills its processes on close() (needs /proc)', async () => {
    const pool = new RenderPool({ workers: 2 });
    await pool.warmup();
    const pids = renderProcesses();
    expect(pids).toHaveLength(2);
    await pool.close();
    expect(pids.filter(alive)).toEqual([]);
  });

  it.skipIf(!hasProc)(
    'leaves no render process behind when its own process is killed with SIGKILL (needs /proc)',
    async () => {
      // A parent process with two render processes: one idle, one busy in native code, where the
      // IPC 'disconnect' event cannot run: ten 2000×2000 SVG filters, about five seconds of Skia each.
      const poolUrl = new URL('./pool.ts', import.meta.url).href;
      const svg = (seed: number) =>
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2000 2000"><filter id="f"><feTurbulence baseFrequency="0.01" numOctaves="100" seed="${seed}"/></filter><rect width="2000" height="2000" filter="url(#f)"/></svg>`;
      const job = jobFor(
        pageDocument({
          width: 2000,
          height: 2000,
          elements: Array.from({ length: 10 }, (_, i) => ({
            id: `s${i}`,
            type: 'svg',
            x: 0,
            y: 0,
            width: 2000,
            height: 2000,
            svg: svg(i + 1),
          })),
        }),
      );
      const script = `
        const { RenderPool } = await import(${JSON.stringify(poolUrl)});
        const pool = new RenderPool({ workers: 2, timeoutMs: 60000 });
        await pool.warmup();
        pool.render(${JSON.stringify(job)}).catch(() => {});
        setTimeout(() => process.stdout.write('busy\\n'), 500);
        setInterval(() => {}, 1000);
      `;
      const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        await new Promise<void>((resolve, reject) => {
          parent.stdout.on('data', (d: Buffer) => d.toString().includes('busy') && resolve());
          parent.once('exit', (code) => reject(new Error(`parent exited early (${code})`)));
        });
        const pids = renderProcesses(parent.pid);
        expect(pids).toHaveLength(2);
        parent.kill('SIGKILL');
        // Without the watchdog the busy one would live until its render ends, most of a minute.
        expect(await until(() => pids.every((pid) => !alive(pid)), 20_000)).toBe(true);
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('carries a RenderError from the process with its details', async () => {
    const pool = new RenderPool({ workers: 1 });
    try {
      const error = await pool.render({ ...quickJob(), pageIds: ['missing'] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RenderError);
      expect(error).toMatchObject({ details: { pageId: 'missing', reason: 'unknown page' } });
    } finally {
      await pool.close();
    }
  });
});
