/**
 * ffmpeg and ffprobe for the video benchmark: the same binaries the engine uses (PLATEN_FFMPEG
 * overrides, else @ffmpeg-installer/ffmpeg), an encoder fed images through a pipe (how
 * Puppeteer-based services make a video from screenshots), and reading single frames back.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const ffmpegPath = (): string =>
  process.env.PLATEN_FFMPEG || (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const ffprobePath = (): string => (require('@ffprobe-installer/ffprobe') as { path: string }).path;

/** Runs a binary to its end; its stdout, or an error with the tail of its stderr. */
async function run(binary: string, args: string[]): Promise<Buffer> {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-2000);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${binary} ${args.join(' ')} exited ${code}: ${err}`);
  return Buffer.concat(out);
}

/** An ffmpeg reading one image after another from its stdin (`-f image2pipe`). */
export interface PipeEncoder {
  /** Writes one encoded image (JPEG or PNG), waiting while ffmpeg's pipe is full. */
  write(image: Buffer): Promise<void>;
  /** Closes the pipe and waits for ffmpeg to finish the file. */
  finish(): Promise<void>;
}

export function pipeEncoder(inputArgs: string[], outputArgs: string[], file: string): PipeEncoder {
  const child = spawn(
    ffmpegPath(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'image2pipe',
      ...inputArgs,
      '-i',
      'pipe:0',
      ...outputArgs,
      file,
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-2000);
  });
  const closed = once(child, 'close') as Promise<[number | null]>;
  return {
    async write(image) {
      if (!child.stdin.write(image)) await once(child.stdin, 'drain');
    },
    async finish() {
      child.stdin.end();
      const [code] = await closed;
      if (code !== 0) throw new Error(`ffmpeg (image2pipe) exited ${code}: ${err}`);
    },
  };
}

/**
 * The frame shown at `index / fps` seconds, as 8-bit RGB pixels. Resampled to `fps` first, so a
 * GIF whose encoder merged identical frames into one longer frame still gives the right one.
 */
export async function frameRgb(file: string, index: number, fps: number): Promise<Buffer> {
  return run(ffmpegPath(), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-i',
    file,
    '-vf',
    `fps=${fps},select=eq(n\\,${index})`,
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    'pipe:1',
  ]);
}

/** The same frame written as a PNG (to look at). */
export async function framePng(file: string, index: number, fps: number, png: string): Promise<void> {
  await run(ffmpegPath(), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    file,
    '-vf',
    `fps=${fps},select=eq(n\\,${index})`,
    '-frames:v',
    '1',
    png,
  ]);
}

export interface Probe {
  codec: string;
  width: number;
  height: number;
  frames: number;
  durationS: number;
  pixFmt: string;
}

/** What a written video really holds (counted frames, not the header's claim). */
export async function probe(file: string): Promise<Probe> {
  const out = await run(ffprobePath(), [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-count_frames',
    '-show_entries',
    'stream=codec_name,width,height,nb_read_frames,pix_fmt:format=duration',
    '-of',
    'json',
    file,
  ]);
  const json = JSON.parse(out.toString()) as {
    streams: { codec_name: string; width: number; height: number; nb_read_frames: string; pix_fmt: string }[];
    format: { duration: string };
  };
  const stream = json.streams[0];
  if (!stream) throw new Error(`${file} has no video stream`);
  return {
    codec: stream.codec_name,
    width: stream.width,
    height: stream.height,
    frames: Number(stream.nb_read_frames),
    durationS: Number(json.format.duration),
    pixFmt: stream.pix_fmt,
  };
}

/** Wall seconds ffmpeg takes to run these arguments (output discarded or written by them). */
export async function timedFfmpeg(args: string[]): Promise<number> {
  const started = performance.now();
  await run(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  return (performance.now() - started) / 1000;
}
