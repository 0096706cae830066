/**
 * The ffmpeg program videos are encoded with and clips decoded with: `PLATEN_FFMPEG`, else the
 * static build the npm package @ffmpeg-installer/ffmpeg ships (ffmpeg 4.1: libx264, libvpx-vp9,
 * libopus, aac, gif). Each run is a child of the render process, in its process group, so the
 * pool's kill of that group at a deadline stops it too (pool/child.ts); while the render process
 * lives, a render's `finally` kills its runs, and an exiting process kills whatever is left.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Readable, Writable } from 'node:stream';
import { RenderError } from '../errors.ts';

let program: string | undefined;

export function ffmpegPath(): string {
  if (program) return program;
  const configured = process.env.PLATEN_FFMPEG;
  if (configured) {
    program = configured;
    return program;
  }
  try {
    program = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    throw new RenderError('No ffmpeg program is available to render video (set PLATEN_FFMPEG).', {
      reason: 'ffmpeg missing',
    });
  }
  return program;
}

/** Runs still going, killed when this process exits (a render process's 'disconnect', say). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** How many ffmpeg runs this process has going (tests check none is left behind). */
export const runningFfmpeg = (): number => running.size;

export class FfmpegFailed extends Error {
  constructor(
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly log: string,
  ) {
    super(`ffmpeg exited with ${signal ?? code}: ${log.trim().split('\n').slice(-3).join(' / ')}`);
    this.name = 'FfmpegFailed';
  }
}

export interface FfmpegRun {
  readonly child: ChildProcess;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  /** Settles when ffmpeg has exited: resolves on success, rejects with FfmpegFailed otherwise. */
  readonly done: Promise<void>;
  /** The last few KB of its log. */
  log(): string;
  kill(): void;
  /** Kills it and waits until it has exited (its files are then closed). */
  stop(): Promise<void>;
}

const LOG_TAIL = 8192;

export interface FfmpegOptions {
  /** A pipe to write frames to (the encoder's input). */
  stdin?: boolean;
  /** A pipe to read frames from (a decoder's output). */
  stdout?: boolean;
  /** Each whole line ffmpeg logs (a decoder reads frame times from showinfo's). */
  onLine?: (line: string) => void;
}

/**
 * Demuxers of the assets written to scratch files, by path (ScratchDir.asset registers them). The
 * upload's probe read each file with the demuxer its bytes sniffed as; reading it here with that
 * same demuxer, never ffmpeg's own guess, keeps a file that could also pass for a playlist (HLS,
 * concat) from being read as one.
 */
const demuxers = new Map<string, string>();

/** ffmpeg's demuxer for a stored media type, or undefined for a type that is no played media. */
export function demuxerFor(mimeType: string): string | undefined {
  if (mimeType === 'video/mp4' || mimeType === 'audio/mp4') return 'mov';
  if (mimeType === 'video/webm' || mimeType === 'audio/webm') return 'matroska';
  if (mimeType === 'audio/mpeg') return 'mp3';
  if (mimeType === 'audio/wav') return 'wav';
  return undefined;
}

export function registerInput(path: string, demuxer: string): void {
  demuxers.set(path, demuxer);
}

export function forgetInput(path: string): void {
  demuxers.delete(path);
}

/** Every input read through the local file and pipe protocols only, with its known demuxer. */
export function guardedInputs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-i' && i + 1 < args.length) {
      const input = args[i + 1] as string;
      const demuxer = demuxers.get(input);
      out.push('-protocol_whitelist', 'file,pipe', ...(demuxer ? ['-f', demuxer] : []));
    }
    out.push(arg);
  }
  return out;
}

export function runFfmpeg(args: readonly string[], options: FfmpegOptions = {}): FfmpegRun {
  const child = spawn(ffmpegPath(), ['-hide_banner', '-nostats', ...guardedInputs(args)], {
    stdio: [options.stdin ? 'pipe' : 'ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
  });
  running.add(child);
  let tail = '';
  let partial = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    tail = (tail + text).slice(-LOG_TAIL);
    if (!options.onLine) return;
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) options.onLine(line);
  });
  // A closed pipe (ffmpeg exited early) surfaces through `done`, not as an unhandled error.
  child.stdin?.on('error', () => {});
  child.stdout?.on('error', () => {});
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (error) => {
      running.delete(child);
      reject(new FfmpegFailed(null, null, error.message));
    });
    child.once('close', (code, signal) => {
      running.delete(child);
      if (partial && options.onLine) options.onLine(partial);
      if (code === 0) resolve();
      else reject(new FfmpegFailed(code, signal, tail));
    });
  });
  // Whoever cares awaits `done`; a run killed on purpose must not be an unhandled rejection.
  done.catch(() => {});
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return {
    child,
    stdin: child.stdin,
    stdout: child.stdout,
    done,
    log: () => tail,
    kill,
    stop: async () => {
      kill();
      // A paused pipe with unread frames would never end, and 'close' waits for it.
      child.stdout?.destroy();
      child.stdin?.destroy();
      await done.catch(() => {});
    },
  };
}

/** Seconds for an ffmpeg time option, from milliseconds (microsecond precision). */
export const ffSeconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(6);
