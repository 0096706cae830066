/**
 * Helpers of the motion tests: the raw frames a video render streams to its encoder, stills at a
 * time, real ffmpeg and ffprobe (from @ffmpeg-installer and @ffprobe-installer) to make test clips,
 * read a file's streams and decode one frame by its index, and comparisons of RGBA pixels.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { checkJob } from '../job.ts';
import { renderInProcess } from '../render.ts';
import type { RenderJob } from '../types.ts';
import { ffmpegPath } from '../video/ffmpeg.ts';
import { openVideo } from '../video/render-video.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
export const ffprobePath = (require('@ffprobe-installer/ffprobe') as { path: string }).path;

/** Runs ffmpeg (bounded: a test never hangs on it) and returns its stdout. */
export async function ffmpeg(args: string[]): Promise<Buffer> {
  const { stdout } = await run(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', ...args], {
    encoding: 'buffer',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 60_000,
  });
  return stdout;
}

/** A scratch folder for the duration of a test file. */
export function scratchDir(): { dir: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'platen-motion-test-'));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Generated media: lavfi sources encoded by ffmpeg, as bytes. */
export async function makeMedia(dir: string, name: string, args: string[]): Promise<Buffer> {
  const file = join(dir, name);
  await ffmpeg([...args, '-y', file]);
  return readFileSync(file);
}

export interface Probe {
  streams: Record<string, string | number | undefined>[];
  format: Record<string, string | number | undefined>;
}

/** ffprobe's view of a file's streams (frames counted by decoding) and container. */
export async function probe(bytes: Uint8Array, ext: string, dir: string): Promise<Probe> {
  const file = join(dir, `probe-${Math.random().toString(36).slice(2)}.${ext}`);
  writeFileSync(file, bytes);
  const { stdout } = await run(
    ffprobePath,
    ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout) as Probe;
}

/** Frame `index` (counted from 0, as the file holds them) of a video file, decoded to RGBA. */
export async function decodeFrame(
  bytes: Uint8Array,
  ext: string,
  index: number,
  dir: string,
): Promise<Buffer> {
  const file = join(dir, `frame-${Math.random().toString(36).slice(2)}.${ext}`);
  writeFileSync(file, bytes);
  // Our MP4 and WebM are BT.709 limited range (video/encode.ts): decoded back the same way.
  const toRgb = ext === 'gif' ? 'format=rgba' : 'scale=in_color_matrix=bt709:in_range=tv,format=rgba';
  return ffmpeg([
    '-i',
    file,
    '-vf',
    `select=eq(n\\,${index}),${toRgb}`,
    '-vsync',
    '0',
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    'pipe:1',
  ]);
}

/** Every frame a video job streams to its encoder, as raw RGBA (the first `limit` of them). */
export async function rawFrames(
  job: RenderJob,
  options: { reuse?: boolean; limit?: number } = {},
): Promise<{ frames: Buffer[]; width: number; height: number; redrawn: number; dirtyPixels: number }> {
  const session = await openVideo(job, checkJob(job), { reuse: options.reuse ?? true });
  try {
    const frames: Buffer[] = [];
    for await (const frame of session.frames()) {
      frames.push(Buffer.from(frame));
      if (options.limit !== undefined && frames.length >= options.limit) break;
    }
    const stats = session.drawStats();
    return {
      frames,
      width: session.plan.outWidth,
      height: session.plan.outHeight,
      redrawn: stats.redrawn,
      dirtyPixels: stats.dirtyPixels,
    };
  } finally {
    await session.dispose();
  }
}

/** A still PNG of the job's pages at `timeMs`, as RGBA. */
export async function stillRgba(job: RenderJob, timeMs: number, pageId?: string): Promise<Buffer> {
  const [file] = await renderInProcess({
    ...job,
    format: 'png',
    timeMs,
    ...(pageId ? { pageIds: [pageId] } : {}),
  });
  if (!file) throw new Error('no still rendered');
  return PNG.sync.read(Buffer.from(file.bytes)).data;
}

export function rgbaToPng(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(Buffer.from(rgba), { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** Peak signal-to-noise ratio of two RGBA images over their colour channels, in dB (Infinity if equal). */
export function psnr(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`sizes differ: ${a.length} and ${b.length}`);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      const d = (a[i + c] as number) - (b[i + c] as number);
      sum += d * d;
      count++;
    }
  }
  return sum === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / (sum / count));
}

/** Byte offset of each top-level box of an MP4 (`moov`, `mdat`, …), in file order. */
export function mp4Boxes(bytes: Uint8Array): { type: string; offset: number }[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: { type: string; offset: number }[] = [];
  for (let offset = 0; offset + 8 <= view.length; ) {
    let size = view.readUInt32BE(offset);
    const type = view.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(view.readBigUInt64BE(offset + 8));
    boxes.push({ type, offset });
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}
