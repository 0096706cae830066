/**
 * Videos on the pool for real: a video renders in a process as in process; a video stopped at its
 * own deadline (videoTimeoutMs) or whose process is killed from outside leaves no ffmpeg behind
 * (each render process leads a process group its encoder and decoders belong to, and the group is
 * killed) and no scratch folder; at most videoConcurrency videos hold processes at once while
 * stills pass the videos waiting in the queue.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DesignDocument, frameTimeMs } from '../../design/index.ts';
import { documentOf, jobFor, pageDocument } from '../goldens/harness.ts';
import { makeMedia, scratchDir } from '../goldens/motion-harness.ts';
import { renderInProcess } from '../render.ts';
import type { JobAsset, RenderJob } from '../types.ts';
import { RenderPool } from './pool.ts';

const scratch = scratchDir();
let clip: JobAsset;

beforeAll(async () => {
  const bytes = await makeMedia(scratch.dir, 'clip.mp4', [
    ...['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25', '-t', '2'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
  ]);
  clip = {
    bytes,
    mimeType: 'video/mp4',
    media: { durationMs: 2000, width: 320, height: 180, hasVideo: true, hasAudio: false },
  };
});

afterAll(() => scratch.dispose());

const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

interface ProcessInfo {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  pgrp: number;
}

function processes(): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      found.push({ pid: Number(name), comm, state: state ?? '', ppid: Number(ppid), pgrp: Number(pgrp) });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

const alive = (pid: number): boolean => processes().some((p) => p.pid === pid && p.state !== 'Z');
const renderProcesses = () =>
  processes().filter((p) => {
    if (p.ppid !== process.pid || p.state === 'Z') return false;
    try {
      return readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes('render-process');
    } catch {
      return false;
    }
  });
const ffmpegIn = (group: number) =>
  processes().filter((p) => p.pgrp === group && p.comm.startsWith('ffmpeg') && p.state !== 'Z');

async function until(condition: () => boolean, ms = 15_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}

/** A 40-second 1280×720 video where everything moves, with a looping clip: tens of seconds of work. */
function longVideo(): RenderJob {
  const doc: DesignDocument = documentOf([
    {
      id: 'long',
      width: 1280,
      height: 720,
      durationMs: 40_000,
      background: '#0f172a',
      elements: [
        { id: 'clip', type: 'video', x: 0, y: 0, width: 1280, height: 720, src: 'asset:clip', loop: true },
        {
          id: 'mover',
          type: 'rect',
          x: 0,
          y: 0,
          width: 1280,
          height: 720,
          fill: '#ffffff80',
          keyframes: [
            { timeMs: 0, rotation: -360 },
            { timeMs: 40_000, rotation: 360 },
          ],
        },
      ],
    },
  ]);
  return jobFor(doc, 'mp4', { fps: 30, assets: { clip } });
}

/** The render process's scratch folders (src/engine/video/scratch.ts). */
const scratchOf = (pid: number) =>
  readdirSync(tmpdir()).filter((name) => name.startsWith(`platen-video-${pid}-`));

/** Collects the ffmpeg runs and scratch folders seen in `group` until `settled` resolves. */
async function watchFfmpeg(
  group: number,
  settled: Promise<unknown>,
): Promise<{ runs: Set<number>; folders: Set<string> }> {
  const runs = new Set<number>();
  const folders = new Set<string>();
  let done = false;
  void settled.finally(() => {
    done = true;
  });
  while (!done) {
    for (const p of ffmpegIn(group)) runs.add(p.pid);
    for (const name of scratchOf(group)) folders.add(name);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { runs, folders };
}

const quickStill = () =>
  jobFor(pageDocument({ width: 120, height: 80, background: '#22c55e', elements: [] }), 'png');

const shortVideo = (format: 'gif' | 'mp4', seconds: number) =>
  jobFor(
    documentOf([
      {
        id: 'v',
        width: 320,
        height: 180,
        durationMs: seconds * 1000,
        background: '#1e3a8a',
        elements: [
          {
            id: 'spin',
            type: 'rect',
            x: 110,
            y: 40,
            width: 100,
            height: 100,
            fill: '#f97316',
            keyframes: [
              { timeMs: 0, rotation: -360 },
              { timeMs: seconds * 1000, rotation: 360 },
            ],
          },
        ],
      },
    ]),
    format,
    { fps: 30 },
  );

describe('videos on the pool', () => {
  it('renders a video in a process as in process', async () => {
    const pool = new RenderPool({ workers: 1 });
    try {
      const job = shortVideo('gif', 1);
      const [pooled] = await pool.render(job);
      const [local] = await renderInProcess(job);
      expect(pooled).toMatchObject({ mimeType: 'image/gif', frames: 30, durationMs: frameTimeMs(30, 30) });
      expect(Buffer.from(pooled?.bytes ?? []).equals(Buffer.from(local?.bytes ?? []))).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it.skipIf(!hasProc)('stops a video at its deadline and leaves no ffmpeg behind (needs /proc)', async () => {
    const pool = new RenderPool({ workers: 1, videoTimeoutMs: 2500, timeoutMs: 60_000 });
    try {
      await pool.warmup();
      const [render] = renderProcesses();
      if (!render) throw new Error('no render process found');
      const outcome = pool.render(longVideo()).catch((e: unknown) => e);
      const seen = await watchFfmpeg(render.pid, outcome);
      expect(await outcome).toMatchObject({ code: 'RENDER_FAILED', details: { reason: 'timeout' } });
      // The encoder and the clip's decoder were running when the deadline struck, in a scratch folder.
      expect(seen.runs.size).toBeGreaterThanOrEqual(2);
      expect(seen.folders.size).toBe(1);
      expect(await until(() => [...seen.runs].every((pid) => !alive(pid)))).toBe(true);
      expect(await until(() => scratchOf(render.pid).length === 0)).toBe(true);
      expect(await until(() => !alive(render.pid))).toBe(true);
      const [after] = await pool.render(quickStill());
      expect(after?.width).toBe(120);
    } finally {
      await pool.close();
    }
  });

  it.skipIf(!hasProc)(
    'leaves no ffmpeg behind when a render process is killed from outside (needs /proc)',
    async () => {
      const pool = new RenderPool({ workers: 1, videoTimeoutMs: 60_000 });
      try {
        await pool.warmup();
        const [render] = renderProcesses();
        if (!render) throw new Error('no render process found');
        const outcome = pool.render(longVideo()).catch((e: unknown) => e);
        expect(await until(() => ffmpegIn(render.pid).length >= 2)).toBe(true);
        const running = ffmpegIn(render.pid).map((p) => p.pid);
        process.kill(render.pid, 'SIGKILL');
        expect(await outcome).toMatchObject({ code: 'RENDER_FAILED', details: { reason: 'internal' } });
        expect(await until(() => running.every((pid) => !alive(pid)))).toBe(true);
      } finally {
        await pool.close();
      }
    },
  );

  it('runs at most videoConcurrency videos at once while stills pass the waiting ones', async () => {
    const pool = new RenderPool({ workers: 2, videoConcurrency: 1 });
    try {
      await pool.warmup();
      let mostVideos = 0;
      const poll = setInterval(() => {
        mostVideos = Math.max(mostVideos, pool.stats().videosRunning);
      }, 20);
      const settled: string[] = [];
      const track = (name: string, job: RenderJob) =>
        pool.render(job).then((files) => {
          settled.push(name);
          if (name === 'still') expect(pool.stats()).toMatchObject({ videosRunning: 1, videosQueued: 1 });
          return files;
        });
      const results = await Promise.all([
        track('first video', shortVideo('mp4', 4)),
        track('second video', shortVideo('mp4', 4)),
        track('still', quickStill()),
      ]);
      clearInterval(poll);
      // The still went to the free process at once, past the second video waiting for the first.
      expect(settled).toEqual(['still', 'first video', 'second video']);
      expect(mostVideos).toBe(1);
      expect(results.map((files) => files[0]?.mimeType)).toEqual(['video/mp4', 'video/mp4', 'image/png']);
    } finally {
      await pool.close();
    }
  });

  it('bounds the videos waiting apart from the stills: a flood of videos never refuses a still', async () => {
    const pool = new RenderPool({ workers: 1, videoConcurrency: 1, maxVideoQueue: 1, maxQueue: 1 });
    try {
      await pool.warmup();
      const first = pool.render(shortVideo('mp4', 4));
      const second = pool.render(shortVideo('mp4', 4));
      // One runs, one waits: the third is over the video lane's bound.
      await expect(pool.render(shortVideo('mp4', 4))).rejects.toMatchObject({ code: 'OVERLOADED' });
      // A background render already accepted and claimed waits its turn instead.
      const claimed = pool.render(shortVideo('mp4', 4), { claimed: true });
      // The stills' queue holds none of those videos.
      const still = await pool.render(quickStill());
      expect(still[0]?.mimeType).toBe('image/png');
      const videos = await Promise.all([first, second, claimed]);
      expect(videos.map((files) => files[0]?.mimeType)).toEqual(['video/mp4', 'video/mp4', 'video/mp4']);
    } finally {
      await pool.close();
    }
  });
});
