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
 */
import { availableParallelism } from 'node:os';
import type { CacheStats } from '../backends/lru.ts';
import { fromWire, PoolOverloaded, RenderError } from '../errors.ts';
import type { RenderedFile, RenderJob } from '../types.ts';
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
}

/** How often a running render's RSS is read (a /proc read: microseconds). */
const MEMORY_POLL_MS = 200;
const MB = 1024 * 1024;

interface Waiting {
  job: RenderJob;
  resolve(files: RenderedFile[]): void;
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
  private readonly maxRss: number;
  private closed = false;
  /** Each process's cache counters, as its last answer reported them. */
  private readonly cachesBySlot: CacheStats[][] = [];
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
    this.maxRss = (options.maxRssMb ?? 1500) * MB;
    for (let slot = 0; slot < workers; slot++) {
      this.startFailures.push(0);
      this.spawn(slot);
    }
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

  render(job: RenderJob): Promise<RenderedFile[]> {
    if (this.closed) return Promise.reject(closedError());
    if (this.queue.length >= this.maxQueue) {
      this.overloaded++;
      return Promise.reject(new PoolOverloaded());
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
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
    const child = new RenderChild({ maxHeapMb: this.maxHeapMb });
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
    for (const [slot, child] of this.slots.entries()) {
      if (this.queue.length === 0) return;
      if (!child.isReady || child.busy || !child.alive) continue;
      const waiting = this.queue.shift();
      if (waiting) void this.execute(slot, child, waiting);
    }
  }

  private async execute(slot: number, child: RenderChild, waiting: Waiting): Promise<void> {
    child.busy = true;
    this.running++;
    const outcome = await this.watch(child, waiting.job);
    this.running--;
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
      waiting.reject(this.failure(outcome));
      // A dead process is replaced when its exit is seen (replaceDead); a live one is killed now.
      if (outcome.kind !== 'gone') this.retire(slot, child);
    }
    this.dispatch();
  }

  /** Runs the job on the process until it answers, dies, runs out of time or grows over maxRssMb. */
  private watch(child: RenderChild, job: RenderJob): Promise<Outcome> {
    let timer: NodeJS.Timeout | undefined;
    let poll: NodeJS.Timeout | undefined;
    return new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout' }), this.timeoutMs);
      poll = setInterval(() => {
        const rss = child.rssBytes();
        if (rss !== undefined && rss > this.maxRss) resolve({ kind: 'memory' });
      }, MEMORY_POLL_MS);
      child.run(job).then(
        (answer) => resolve({ kind: 'answer', answer }),
        (error: unknown) =>
          resolve({ kind: 'gone', ...(error instanceof ChildGone ? { exit: error.exit } : {}) }),
      );
    }).finally(() => {
      clearTimeout(timer);
      clearInterval(poll);
    });
  }

  private failure(outcome: Exclude<Outcome, { kind: 'answer' }>): RenderError {
    if (outcome.kind === 'timeout') {
      this.timedOut++;
      return new RenderError(`The render took longer than ${this.timeoutMs} ms and was stopped.`, {
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
