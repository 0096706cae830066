/**
 * The render pool: child processes (render-process.ts, one render at a time each), sized to the
 * machine and started eagerly, so renders run off the event loop and can always be stopped. The
 * queue is bounded (full → PoolOverloaded, mapped to 503 OVERLOADED). Each render has a deadline,
 * counted from when a process takes it: on expiry the process is killed (SIGKILL stops native
 * code too, which terminating a worker thread does not) and replaced, and only that render fails
 * with RENDER_FAILED 'timeout'. Memory is bounded per process: V8's heap by --max-old-space-size,
 * everything else (Skia surfaces, decoded images, libvips) by the resident set size, polled during
 * a render (over `maxRssMb` → killed, 'out of memory') and checked after it (over `recycleRssMb`
 * → the process is replaced before its next render). A process that dies fails only its render
 * ('internal') and is replaced.
 *
 * Videos (MP4, WebM, GIF) hold a process for seconds to minutes: they have their own deadline
 * (`videoTimeoutMs`), and at most `videoConcurrency` of them run at once; a video that would go over
 * waits while the stills queued behind it are handed the free processes, so stills keep flowing.
 * Killing a render process kills its process group, its ffmpeg runs with it (child.ts).
 */
import { availableParallelism } from 'node:os';
import { renderCacheScale } from '../backends/cache-limits.ts';
import { type CacheStats, Lru } from '../backends/lru.ts';
import { fromWire, PoolOverloaded, RenderError } from '../errors.ts';
import { isVideoFormat, type RenderedFile, type RenderJob, type StagedFile } from '../types.ts';
import { removeOrphanScratch } from '../video/scratch.ts';
import { type ChildExit, ChildGone, RenderChild } from './child.ts';
import type { RenderOutcome } from './protocol.ts';

export interface RenderPoolOptions {
  /** Render processes (default: the machine's cores). */
  workers?: number;
  /** Renders waiting for a process before new ones are refused (default 256). */
  maxQueue?: number;
  /** Deadline of one render, queue wait excluded (default 30 s). */
  timeoutMs?: number;
  /** V8 old-generation heap per process in MB (default 512). */
  maxHeapMb?: number;
  /** After a render, a process whose RSS is above this is replaced (default 600 MB). */
  recycleRssMb?: number;
  /** A render whose process's RSS goes above this is killed with 'out of memory' (default 1500 MB). */
  maxRssMb?: number;
  /** Deadline of one video render (MP4, WebM, GIF), queue wait excluded (default 120 s). */
  videoTimeoutMs?: number;
  /** Video renders running at once, each in its own process (default 1); the other processes serve stills. */
  videoConcurrency?: number;
  /** Videos that may wait for a video slot (default 4 × videoConcurrency); more → PoolOverloaded. */
  maxVideoQueue?: number;
}

export interface RenderPoolStats {
  workers: number;
  queued: number;
  running: number;
  completed: number;
  failed: number;
  timedOut: number;
  /** Renders killed over maxRssMb, or whose process exhausted its heap. */
  outOfMemory: number;
  /** Processes replaced after a render because their RSS was over recycleRssMb. */
  recycled: number;
  /** Processes started to replace another (crash, timeout, memory, recycling), since construction. */
  restarts: number;
  overloaded: number;
  maxQueue: number;
  /** Video renders running, and waiting in the queue. */
  videosRunning: number;
  videosQueued: number;
}

/** How often a running render's RSS is read (a /proc read: microseconds). */
const MEMORY_POLL_MS = 200;
const MB = 1024 * 1024;

interface Waiting {
  job: RenderJob;
  /** RenderPool.renderStaged: where the render process writes the files. */
  outputDir?: string;
  resolve(files: (RenderedFile | StagedFile)[]): void;
  reject(error: Error): void;
}

type Outcome =
  | { kind: 'answer'; answer: RenderOutcome }
  | { kind: 'gone'; exit?: ChildExit }
  | { kind: 'timeout' }
  | { kind: 'memory' };

export class RenderPool {
  private readonly slots: RenderChild[] = [];
  private readonly queue: Waiting[] = [];
  /** Consecutive failed starts per slot: a start that keeps failing is retried ever more slowly. */
  private readonly startFailures: number[] = [];
  private readonly respawns = new Set<NodeJS.Timeout>();
  private readonly maxQueue: number;
  private readonly timeoutMs: number;
  private readonly maxHeapMb: number;
  private readonly recycleRss: number;
  /** The share of their cache budgets render processes may fill, to stay under recycleRss. */
  private readonly cacheScale: number;
  private readonly maxRss: number;
  private readonly videoTimeoutMs: number;
  private readonly videoConcurrency: number;
  private readonly maxVideoQueue: number;
  private videosRunning = 0;
  private closed = false;
  /** Each process's cache counters, as its last answer reported them. */
  private readonly cachesBySlot: CacheStats[][] = [];
  /** Workspace and template (a job's cacheKey) → the slot that rendered it last. */
  private readonly affinity = new Lru<string, number>({ maxEntries: 4096 });
  private running = 0;
  private completed = 0;
  private failed = 0;
  private timedOut = 0;
  private outOfMemory = 0;
  private recycled = 0;
  private overloaded = 0;
  private spawned = 0;

  constructor(options: RenderPoolOptions = {}) {
    const workers = Math.max(1, options.workers ?? availableParallelism());
    this.maxQueue = options.maxQueue ?? 256;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxHeapMb = options.maxHeapMb ?? 512;
    this.recycleRss = (options.recycleRssMb ?? 600) * MB;
    this.cacheScale = renderCacheScale(options.recycleRssMb ?? 600);
    this.maxRss = (options.maxRssMb ?? 1500) * MB;
    this.videoTimeoutMs = options.videoTimeoutMs ?? 120_000;
    this.videoConcurrency = Math.max(1, options.videoConcurrency ?? 1);
    this.maxVideoQueue = options.maxVideoQueue ?? 4 * this.videoConcurrency;
    for (let slot = 0; slot < workers; slot++) {
      this.startFailures.push(0);
      this.spawn(slot);
    }
    // Scratch folders of render processes killed with a service that is no longer running.
    void removeOrphanScratch().catch(() => {});
  }

  /** Resolves when every process has loaded the renderer and the fonts (they start at construction). */
  async warmup(): Promise<void> {
    try {
      await Promise.all(this.slots.map((child) => child.ready));
    } catch (error) {
      const exit =
        error instanceof ChildGone ? ` (exit code ${error.exit.code}, signal ${error.exit.signal})` : '';
      throw new Error(`A render process failed to start${exit}; its output is above.`);
    }
  }

  /**
   * `claimed`: a render the background worker took from the queue table. The worker bounds how
   * many it holds, and refusing one would fail a render its caller was told is accepted, so the
   * video lane's bound does not apply to it.
   */
  async render(job: RenderJob, options: { claimed?: boolean } = {}): Promise<RenderedFile[]> {
    const files = await this.enqueue(job, undefined, options);
    return files.map((file) => {
      if (!('bytes' in file)) throw new Error('the render process staged a file it was asked to send');
      return file;
    });
  }

  /**
   * Renders as `render` does, but the render process writes each file into `outputDir` and syncs
   * it there, answering paths (StagedFile): for a store on the same filesystem, which moves them
   * into place, so the bytes never cross the pipe or the service's memory. The caller owns the
   * files from then on (to move or remove).
   */
  async renderStaged(
    job: RenderJob,
    outputDir: string,
    options: { claimed?: boolean } = {},
  ): Promise<StagedFile[]> {
    const files = await this.enqueue(job, outputDir, options);
    return files.map((file) => {
      if (!('path' in file)) throw new Error('the render process sent bytes it was asked to stage');
      return file;
    });
  }

  private enqueue(
    job: RenderJob,
    outputDir: string | undefined,
    options: { claimed?: boolean },
  ): Promise<(RenderedFile | StagedFile)[]> {
    if (this.closed) return Promise.reject(closedError());
    // Videos wait in a lane of their own: however many are sent, they never fill the queue that
    // stills wait in, and at most a few wait for each video slot (each may take minutes).
    const videosWaiting = this.queue.filter((waiting) => isVideoFormat(waiting.job.format)).length;
    const full = isVideoFormat(job.format)
      ? videosWaiting >= this.maxVideoQueue && !options.claimed
      : this.queue.length - videosWaiting >= this.maxQueue;
    if (full) {
      this.overloaded++;
      return Promise.reject(new PoolOverloaded());
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job, ...(outputDir ? { outputDir } : {}), resolve, reject });
      this.dispatch();
    });
  }

  stats(): RenderPoolStats {
    return {
      workers: this.slots.filter((child) => child.alive).length,
      queued: this.queue.length,
      running: this.running,
      completed: this.completed,
      failed: this.failed,
      timedOut: this.timedOut,
      outOfMemory: this.outOfMemory,
      recycled: this.recycled,
      restarts: Math.max(0, this.spawned - this.slots.length),
      overloaded: this.overloaded,
      maxQueue: this.maxQueue,
      videosRunning: this.videosRunning,
      videosQueued: this.queue.filter((waiting) => isVideoFormat(waiting.job.format)).length,
    };
  }

  /** The render processes' caches, summed by name (counters restart with a replaced process). */
  cacheStats(): CacheStats[] {
    const byName = new Map<string, CacheStats>();
    for (const caches of this.cachesBySlot) {
      for (const cache of caches ?? []) {
        const sum = byName.get(cache.name);
        if (!sum) byName.set(cache.name, { ...cache });
        else {
          sum.entries += cache.entries;
          sum.bytes += cache.bytes;
          sum.maxBytes =
            sum.maxBytes === null || cache.maxBytes === null ? null : sum.maxBytes + cache.maxBytes;
          sum.hits += cache.hits;
          sum.misses += cache.misses;
          sum.evictions += cache.evictions;
        }
      }
    }
    return [...byName.values()];
  }

  /** Kills every process; queued and running renders fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.respawns) clearTimeout(timer);
    for (const waiting of this.queue.splice(0)) waiting.reject(closedError());
    for (const child of this.slots) child.kill();
    await Promise.all(this.slots.map((child) => child.gone));
  }

  private spawn(slot: number): void {
    const child = new RenderChild({ maxHeapMb: this.maxHeapMb, cacheScale: this.cacheScale });
    this.spawned++;
    this.slots[slot] = child;
    child.ready.then(
      () => {
        this.startFailures[slot] = 0;
        this.dispatch();
      },
      () => {},
    );
    void child.gone.then(() => this.replaceDead(slot, child));
  }

  /** A process that died on its own (crash, OOM killer, a signal from outside) is replaced. */
  private replaceDead(slot: number, child: RenderChild): void {
    if (this.closed || this.slots[slot] !== child) return; // retired on purpose: already replaced
    if (child.isReady) {
      this.spawn(slot);
      return;
    }
    const failures = (this.startFailures[slot] ?? 0) + 1;
    this.startFailures[slot] = failures;
    const timer = setTimeout(
      () => {
        this.respawns.delete(timer);
        if (!this.closed) this.spawn(slot);
      },
      Math.min(100 * 2 ** failures, 10_000),
    );
    this.respawns.add(timer);
  }

  /** Replaces a process on purpose (deadline, memory): the new one starts, the old one is killed. */
  private retire(slot: number, child: RenderChild): void {
    if (!this.closed) this.spawn(slot);
    child.kill();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = [...this.slots.entries()].filter(
        ([, child]) => child.isReady && !child.busy && child.alive,
      );
      if (idle.length === 0) return;
      // The first queued render that may start: a video only while fewer than videoConcurrency run.
      const videosFull = this.videosRunning >= this.videoConcurrency;
      const index = this.queue.findIndex((waiting) => !(videosFull && isVideoFormat(waiting.job.format)));
      if (index < 0) return;
      const [waiting] = this.queue.splice(index, 1) as [Waiting];
      // A template's renders go to the process that rendered it last when it is free: its caches
      // hold the template's decoded images and the bases its next render splices onto.
      const key = waiting.job.cacheKey ? `${waiting.job.workspaceId}\u0000${waiting.job.cacheKey}` : null;
      const preferred = key === null ? undefined : this.affinity.get(key);
      const [slot, child] = idle.find(([at]) => at === preferred) ?? (idle[0] as [number, RenderChild]);
      if (key !== null) this.affinity.set(key, slot);
      void this.execute(slot, child, waiting);
    }
  }

  private async execute(slot: number, child: RenderChild, waiting: Waiting): Promise<void> {
    const video = isVideoFormat(waiting.job.format);
    child.busy = true;
    this.running++;
    if (video) this.videosRunning++;
    const outcome = await this.watch(child, waiting.job, waiting.outputDir);
    this.running--;
    if (video) this.videosRunning--;
    child.busy = false;
    if (outcome.kind === 'answer') {
      const { answer } = outcome;
      this.cachesBySlot[slot] = answer.caches;
      if (answer.ok) {
        this.completed++;
        waiting.resolve(answer.files);
      } else {
        this.failed++;
        waiting.reject(fromWire(answer.error));
      }
      if (answer.rssBytes > this.recycleRss) {
        this.recycled++;
        this.retire(slot, child);
      }
    } else {
      this.failed++;
      waiting.reject(this.failure(outcome, video));
      // A dead process is replaced when its exit is seen (replaceDead); a live one is killed now.
      if (outcome.kind !== 'gone') this.retire(slot, child);
    }
    this.dispatch();
  }

  /** Runs the job on the process until it answers, dies, runs out of time or grows over maxRssMb. */
  private watch(child: RenderChild, job: RenderJob, outputDir: string | undefined): Promise<Outcome> {
    let timer: NodeJS.Timeout | undefined;
    let poll: NodeJS.Timeout | undefined;
    const deadline = isVideoFormat(job.format) ? this.videoTimeoutMs : this.timeoutMs;
    return new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout' }), deadline);
      poll = setInterval(() => {
        const rss = child.rssBytes();
        if (rss !== undefined && rss > this.maxRss) resolve({ kind: 'memory' });
      }, MEMORY_POLL_MS);
      child.run(job, outputDir).then(
        (answer) => resolve({ kind: 'answer', answer }),
        (error: unknown) =>
          resolve({ kind: 'gone', ...(error instanceof ChildGone ? { exit: error.exit } : {}) }),
      );
    }).finally(() => {
      clearTimeout(timer);
      clearInterval(poll);
    });
  }

  private failure(outcome: Exclude<Outcome, { kind: 'answer' }>, video: boolean): RenderError {
    if (outcome.kind === 'timeout') {
      this.timedOut++;
      const deadline = video ? this.videoTimeoutMs : this.timeoutMs;
      return new RenderError(`The render took longer than ${deadline} ms and was stopped.`, {
        reason: 'timeout',
      });
    }
    if (outcome.kind === 'memory' || outcome.exit?.heapExhausted) {
      this.outOfMemory++;
      return new RenderError('The render ran out of memory and was stopped.', { reason: 'out of memory' });
    }
    if (this.closed) return closedError();
    return new RenderError('The render failed inside the renderer.', { reason: 'internal' });
  }
}

function closedError(): RenderError {
  return new RenderError('The render pool was closed before the render finished.', { reason: 'internal' });
}
