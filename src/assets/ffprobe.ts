/**
 * Runs ffprobe on uploaded bytes and hands back what it printed, never more than a bounded amount,
 * never for longer than a deadline (the process is killed then), and never leaving the bytes
 * behind: they go to a private temporary directory that is removed whatever happens. MP4 needs
 * a seekable file (its index may sit at the end), so the bytes are not piped.
 *
 * The program is PLATEN_FFPROBE, else the one @ffprobe-installer ships (required on first use
 * only: that package throws on import on platforms it has no binary for, where PLATEN_FFPROBE
 * still works).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ProbeRun {
  /** Exit code, or null when the process was killed (deadline, output bound) or died by a signal. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** stdout passed its bound: the process was killed and stdout is cut. */
  overflowed: boolean;
}

export interface ProbeOptions {
  timeoutMs: number;
  maxOutputBytes: number;
  /** The program; default PLATEN_FFPROBE, else @ffprobe-installer/ffprobe. */
  program?: string;
}

/** stderr is only read for a message: its first few kilobytes are plenty. */
const MAX_STDERR_BYTES = 8 * 1024;

let installed: string | undefined;

export function ffprobeProgram(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.PLATEN_FFPROBE?.trim();
  if (configured) return configured;
  installed ??= (createRequire(import.meta.url)('@ffprobe-installer/ffprobe') as { path: string }).path;
  return installed;
}

/**
 * Probes are short (headers only) but each is a process: a burst of uploads waits its turn
 * rather than starting a process per request.
 */
const MAX_CONCURRENT_PROBES = 4;
let running = 0;
const waiting: Array<() => void> = [];

async function turn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_PROBES) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    // The slot passes straight to the next waiter, so `running` counts it without a gap.
    if (next) next();
    else running--;
  }
}

/** Writes `bytes` to a temporary file, runs ffprobe with `args` and `file:<path>` last, removes the file. */
export function probeBytes(
  bytes: Uint8Array,
  args: readonly string[],
  options: ProbeOptions,
): Promise<ProbeRun> {
  return turn(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'platen-probe-'));
    try {
      const path = join(dir, 'input');
      await writeFile(path, bytes, { mode: 0o600 });
      // `file:` so a name can never be read as another protocol or an option.
      return await run(options.program ?? ffprobeProgram(), [...args, `file:${path}`], options);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

function run(program: string, args: string[], options: ProbeOptions): Promise<ProbeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;
    let timedOut = false;
    let overflowed = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (overflowed) return;
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxOutputBytes) {
        overflowed = true;
        child.kill('SIGKILL');
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes >= MAX_STDERR_BYTES) return;
      stderr.push(chunk.subarray(0, MAX_STDERR_BYTES - stderrBytes));
      stderrBytes += chunk.length;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`ffprobe could not be started (${program}): ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
        overflowed,
      });
    });
  });
}
