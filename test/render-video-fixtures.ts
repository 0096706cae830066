/**
 * What the video API suites share: small animated templates, and ffprobe's view of a video file
 * (codec, size, frame rate, frames counted by decoding, duration) to check what was rendered.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const ffprobePath = (require('@ffprobe-installer/ffprobe') as { path: string }).path;

/**
 * One animated page, `width`×`height`, `durationMs` long: a blue card fading in over the first
 * half (at most 500 ms) and a text sliding in. At t = 0 the card is invisible (the page is white there), once the
 * `in` animations ended it is fully drawn.
 */
export function animatedPage(
  id: string,
  options: { width?: number; height?: number; durationMs?: number } = {},
) {
  const width = options.width ?? 320;
  const height = options.height ?? 180;
  const durationMs = options.durationMs ?? 1000;
  const animationMs = Math.min(500, Math.round(durationMs / 2));
  return {
    id,
    width,
    height,
    background: '#ffffff',
    durationMs,
    elements: [
      {
        id: `${id}-card`,
        type: 'rect',
        name: 'card',
        x: Math.round(width * 0.1),
        y: Math.round(height * 0.1),
        width: Math.round(width * 0.8),
        height: Math.round(height * 0.8),
        fill: '#2f6fdf',
        animations: [{ preset: 'fade', phase: 'in', durationMs: animationMs }],
      },
      {
        id: `${id}-title`,
        type: 'text',
        name: 'headline',
        x: Math.round(width * 0.15),
        y: Math.round(height * 0.35),
        width: Math.round(width * 0.7),
        height: Math.round(height * 0.3),
        text: 'Hello {{name}}',
        fontFamily: 'Inter',
        fontSize: Math.round(height / 8),
        color: '#ffffff',
        animations: [{ preset: 'slide-left', phase: 'in', durationMs: animationMs }],
      },
    ],
  };
}

/** A document of animated pages (one by default), the first active. */
export function animatedDocument(
  pages: Array<ReturnType<typeof animatedPage>> = [animatedPage('p1')],
): Record<string, unknown> {
  return { schemaVersion: 2, activePageId: pages[0]?.id ?? 'p1', pages };
}

export interface VideoProbe {
  codec: string;
  pixelFormat: string | undefined;
  width: number;
  height: number;
  /** Frames per second from the stream's `r_frame_rate` (e.g. "10/1"). */
  fps: number;
  /** Frames counted by decoding the whole stream. */
  frames: number;
  durationMs: number;
  formatName: string;
}

/** ffprobe's reading of a video file's first video stream, counting its frames by decoding them. */
export async function probeVideo(bytes: Uint8Array): Promise<VideoProbe> {
  const dir = mkdtempSync(join(tmpdir(), 'platen-video-probe-'));
  try {
    const file = join(dir, 'video');
    writeFileSync(file, bytes);
    const { stdout } = await run(ffprobePath, [
      '-v',
      'error',
      '-count_frames',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,pix_fmt,width,height,r_frame_rate,nb_read_frames:format=duration,format_name',
      '-of',
      'json',
      file,
    ]);
    const info = JSON.parse(stdout) as {
      streams: Array<Record<string, string | number>>;
      format: { duration?: string; format_name: string };
    };
    const stream = info.streams[0];
    if (!stream) throw new Error(`no video stream: ${stdout}`);
    const [num = 0, den = 1] = String(stream.r_frame_rate).split('/').map(Number);
    return {
      codec: String(stream.codec_name),
      pixelFormat: stream.pix_fmt === undefined ? undefined : String(stream.pix_fmt),
      width: Number(stream.width),
      height: Number(stream.height),
      fps: num / den,
      frames: Number(stream.nb_read_frames),
      durationMs: Math.round(Number(info.format.duration ?? 0) * 1000),
      formatName: info.format.format_name,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The top-level box types of an MP4 file in order (`ftyp`, `moov`, `mdat`…): `+faststart` puts moov before mdat. */
export function mp4Boxes(bytes: Uint8Array): string[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: string[] = [];
  let offset = 0;
  while (offset + 8 <= view.length) {
    let size = view.readUInt32BE(offset);
    const type = view.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(view.readBigUInt64BE(offset + 8));
    if (size === 0) size = view.length - offset;
    if (size < 8) break;
    boxes.push(type);
    offset += size;
  }
  return boxes;
}
