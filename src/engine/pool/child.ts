/**
 * One render process seen from the pool: forks render-process.ts (compiled, see entry.ts; heap capped
 * with --max-old-space-size), knows when it is ready, sends it one job at a time, reads its resident
 * set size from /proc, and kills it. Its stderr is passed through to ours; a V8 heap exhaustion
 * found there is reported, so the pool can say 'out of memory' rather than 'internal'.
 *
 * A render process starts its own process group (`detached`), and the programs it runs (ffmpeg for
 * videos) stay in it: killing the process kills the whole group, so a video stopped at its
 * deadline leaves no encoder behind, and its memory counts the group's (the encoders' too).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CACHE_SCALE_VARIABLE } from '../backends/cache-limits.ts';
import type { RenderedFile, RenderJob, StagedFile } from '../types.ts';
import { removeScratchOf } from '../video/scratch.ts';
import { BULK_FD, BulkReader } from './bulk.ts';
import { renderProcessEntry } from './entry.ts';
import type { ChildMessage, RenderAnswer, RenderOutcome, RenderRequest } from './protocol.ts';
import { ShippedAssets } from './shipped-assets.ts';

/** How a process ended, as far as its last render is concerned. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  heapExhausted: boolean;
}

/**
 * How far V8 lets a render process's old generation grow past what a full GC left (3×). Under a
 * heap cap below 2 GB V8 allows only about 1.4× (its growing factor is interpolated between 1.3 and
 * 2 for such caps, 4 above), and each render leaves a little for the old space: a process ran a
 * full mark-compact every 6 headline renders (85 in 530, `--trace-gc`), 3 in 530 with this, and
 * rendered 122 → 183 JPEGs/s (docs/performance.md). The cap (`maxHeapMb`) still bounds the heap.
 */
const V8_HEAP_GROWING = '--heap-growing-percent=200';

/**
 * glibc's allocator for render processes, unless the operator set these: freed memory up to 32 MB
 * a block stays in the process and is handed out again, instead of going back to the kernel and
 * being faulted in anew, page by page, by the next render's canvases, strips and decoded photos.
 * Measured on the benchmark machine (docs/performance.md, "Memory that is touched again"): a
 * first touch costs about 2.8 ms per MB there (64 MB: 180 ms, against 2.4 ms the second time), and
 * a PNG render with a new photo made 3,400 page faults before, 630 after. The process's resident
 * size stays near its high-water mark instead, which the pool's recycling limit bounds.
 * musl and other allocators ignore the variables.
 */
const RENDER_PROCESS_MALLOC = {
  MALLOC_MMAP_THRESHOLD_: String(32 * 2 ** 20),
  MALLOC_TRIM_THRESHOLD_: String(256 * 2 ** 20),
};

export class ChildGone extends Error {
  constructor(readonly exit: ChildExit) {
    super(`render process exited (code ${exit.code}, signal ${exit.signal})`);
    this.name = 'ChildGone';
  }
}

export class RenderChild {
  readonly ready: Promise<void>;
  /** Settles when the process has exited and its pipes are closed. */
  readonly gone: Promise<ChildExit>;
  isReady = false;
  busy = false;
  private readonly process: ChildProcess;
  private pending: { resolve(answer: RenderOutcome): void; reject(error: Error): void } | undefined;
  private heapExhausted = false;
  private readonly bulk: BulkReader;
  private readonly shipped = new ShippedAssets();
  /** The job in flight, kept to send again whole if the process dropped an asset it held. */
  private current: RenderJob | undefined;
  private currentOutputDir: string | undefined;

  /** `cacheScale`: the share of its cache budgets the process may fill (cache-limits.ts). */
  constructor(options: { maxHeapMb: number; cacheScale: number }) {
    const entry = renderProcessEntry();
    this.process = fork(entry.path, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${options.maxHeapMb}`, V8_HEAP_GROWING],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc', 'pipe'],
      // Its own process group (its id is the group's), which its ffmpeg runs join.
      detached: true,
      env: { ...RENDER_PROCESS_MALLOC, ...process.env, [CACHE_SCALE_VARIABLE]: String(options.cacheScale) },
    });
    this.bulk = new BulkReader(this.process.stdio[BULK_FD] as Readable);
    this.process.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.includes('JavaScript heap out of memory')) this.heapExhausted = true;
      process.stderr.write(chunk);
    });
    this.gone = new Promise((resolve) => {
      const end = (exit: ChildExit) => {
        this.pending?.reject(new ChildGone(exit));
        this.pending = undefined;
        resolve(exit);
      };
      // A process that died on its own (a crash) may leave its ffmpeg runs behind: they go too,
      // and so do the scratch folders of a render it did not finish.
      this.process.once('exit', () => {
        this.killGroup();
        const pid = this.process.pid;
        if (pid !== undefined) void removeScratchOf(pid).catch(() => {});
      });
      this.process.once('close', (code, signal) => end({ code, signal, heapExhausted: this.heapExhausted }));
      // A process that could not be started (e.g. EAGAIN) is gone too; other errors are only reported.
      this.process.on('error', (error) => {
        process.stderr.write(`render process: ${error.message}\n`);
        if (this.process.pid === undefined) end({ code: null, signal: null, heapExhausted: false });
      });
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.process.on('message', (message: ChildMessage) => {
        if (message.kind === 'ready') {
          this.isReady = true;
          resolve();
        } else if (message.kind === 'need-assets') {
          this.shipped.forget();
          if (this.current) this.send(this.current, true);
        } else {
          // The pending render stays pending while its bytes arrive: a death meanwhile rejects it.
          const pending = this.pending;
          void this.withBytes(message).then(
            (outcome) => {
              if (this.pending !== pending) return;
              this.pending = undefined;
              this.current = undefined;
              pending?.resolve(outcome);
            },
            (error: Error) => {
              if (this.pending !== pending) return;
              this.pending = undefined;
              this.current = undefined;
              pending?.reject(error);
            },
          );
        }
      });
      void this.gone.then((exit) => reject(new ChildGone(exit)));
    });
    // Whoever cares awaits `ready`; a process that dies during start must not be an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** Still running, with its IPC channel open. */
  get alive(): boolean {
    return this.process.connected;
  }

  private async withBytes(answer: RenderAnswer): Promise<RenderOutcome> {
    if (!answer.ok) return answer;
    const files: (RenderedFile | StagedFile)[] = [];
    for (const { byteLength, path, ...file } of answer.files)
      files.push(
        path === undefined
          ? { ...file, bytes: await this.bulk.read(byteLength) }
          : { ...file, byteLength, path },
      );
    return { ...answer, files };
  }

  /**
   * Sends one job; settles with the answer, or rejects with ChildGone if the process dies first.
   * With `outputDir`, the files are written there (RenderPool.renderStaged).
   */
  run(job: RenderJob, outputDir?: string): Promise<RenderOutcome> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.current = job;
      this.currentOutputDir = outputDir;
      this.send(job, false);
    });
  }

  private send(job: RenderJob, whole: boolean): void {
    const outputDir = this.currentOutputDir;
    const request: RenderRequest = {
      ...(whole ? { kind: 'render', job, knownAssets: [] } : { kind: 'render', ...this.shipped.split(job) }),
      ...(outputDir ? { outputDir } : {}),
    };
    this.process.send(request, (error) => {
      if (error && this.pending) {
        const { reject } = this.pending;
        this.pending = undefined;
        reject(error);
      }
    });
  }

  /**
   * Resident set size in bytes of the process and the programs it runs (ffmpeg), from /proc (Linux);
   * undefined elsewhere or once gone.
   */
  rssBytes(): number | undefined {
    const pid = this.process.pid;
    if (pid === undefined) return undefined;
    const own = rssOf(pid);
    if (own === undefined) return undefined;
    let total = own;
    for (const child of descendantsOf(pid)) total += rssOf(child) ?? 0;
    return total;
  }

  /** SIGKILL to its process group: stops it at once, whatever it is doing (native code included), and its ffmpeg runs. */
  kill(): void {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      if (!this.killGroup()) this.process.kill('SIGKILL');
    }
  }

  /** SIGKILL to every process of its group; false when there was none to signal. */
  private killGroup(): boolean {
    const pid = this.process.pid;
    if (pid === undefined) return false;
    try {
      process.kill(-pid, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  }
}

function rssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

const CHILDREN_LISTED = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

/** Processes started by `pid` and theirs (from /proc/<pid>/task/<pid>/children, where the kernel lists them). */
function descendantsOf(pid: number): number[] {
  if (!CHILDREN_LISTED) return [];
  const found: number[] = [];
  const pending = [pid];
  while (pending.length > 0 && found.length < 256) {
    const parent = pending.pop() as number;
    let listed = '';
    try {
      listed = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const id of listed.split(' ')) {
      const child = Number(id);
      if (!Number.isInteger(child) || child <= 0) continue;
      found.push(child);
      pending.push(child);
    }
  }
  return found;
}
