/**
 * The render pool: worker threads (piscina) sized to the machine, so renders run off the event
 * loop. The queue is bounded (full → PoolOverloaded, mapped to 503 OVERLOADED), each render has a
 * deadline (on expiry its worker is terminated and replaced, and only that render fails with
 * RENDER_FAILED), and each worker's heap is bounded with resourceLimits.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { fromWire, PoolOverloaded, RenderError } from '../errors.ts';
import type { RenderedFile, RenderJob } from '../types.ts';
import type { WorkerResult, WorkerTask } from './protocol.ts';

export interface RenderPoolOptions {
  /** Worker threads (default: the machine's cores). */
  workers?: number;
  /** Renders waiting for a worker before new ones are refused (default 256). */
  maxQueue?: number;
  /** Deadline of one render, queue wait excluded (default 30 s). */
  timeoutMs?: number;
  /** V8 old-generation heap per worker in MB (default 512). */
  maxHeapMb?: number;
}

export interface RenderPoolStats {
  workers: number;
  queued: number;
  running: number;
  completed: number;
  failed: number;
  timedOut: number;
  overloaded: number;
  maxQueue: number;
}

const WORKER_URL = new URL('./worker.ts', import.meta.url).href;

export class RenderPool {
  private readonly piscina: Piscina<WorkerTask, WorkerResult>;
  private readonly maxQueue: number;
  private readonly timeoutMs: number;
  private running = 0;
  private failed = 0;
  private timedOut = 0;
  private overloaded = 0;

  constructor(options: RenderPoolOptions = {}) {
    const workers = Math.max(1, options.workers ?? availableParallelism());
    this.maxQueue = options.maxQueue ?? 256;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.piscina = new Piscina<WorkerTask, WorkerResult>({
      filename: WORKER_URL,
      minThreads: workers,
      maxThreads: workers,
      maxQueue: this.maxQueue,
      idleTimeout: Number.POSITIVE_INFINITY,
      execArgv: ['--import', 'tsx'],
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 512, stackSizeMb: 4 },
    });
  }

  /** Loads the worker modules and fonts in every thread, so the first real render is warm. */
  async warmup(): Promise<void> {
    await Promise.all(
      Array.from({ length: this.piscina.maxThreads }, () => this.piscina.run({ kind: 'warmup' })),
    );
  }

  async render(job: RenderJob): Promise<RenderedFile[]> {
    if (this.piscina.queueSize >= this.maxQueue) {
      this.overloaded++;
      throw new PoolOverloaded();
    }
    const controller = new AbortController();
    let expired = false;
    let timer: NodeJS.Timeout | undefined;
    let started = false;
    // The worker says when it starts: the deadline excludes queue time, which is not this document's fault.
    const { port1, port2 } = new MessageChannel();
    port1.once('message', () => {
      started = true;
      this.running++;
      timer = setTimeout(() => {
        expired = true;
        controller.abort();
      }, this.timeoutMs);
    });
    const task = this.piscina.run(
      { kind: 'render', job, started: port2 },
      { signal: controller.signal, transferList: [port2] },
    );
    try {
      const result = await task;
      if (!result.ok) throw fromWire(result.error);
      if (!('files' in result)) throw new Error('unexpected worker answer');
      return result.files;
    } catch (error) {
      throw this.failure(error, expired);
    } finally {
      if (timer) clearTimeout(timer);
      if (started) this.running--;
      port1.close();
    }
  }

  private failure(error: unknown, expired: boolean): Error {
    if (error instanceof RenderError) {
      this.failed++;
      return error;
    }
    if (error instanceof Error && error.message === 'Task queue is at limit') {
      this.overloaded++;
      return new PoolOverloaded();
    }
    this.failed++;
    if (expired) {
      this.timedOut++;
      return new RenderError(`The render took longer than ${this.timeoutMs} ms and was stopped.`, {
        reason: 'timeout',
      });
    }
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new RenderError('The render ran out of memory and was stopped.', { reason: 'out of memory' });
    }
    return new RenderError('The render failed inside the renderer.', { reason: 'internal' });
  }

  stats(): RenderPoolStats {
    return {
      workers: this.piscina.threads.length,
      queued: this.piscina.queueSize,
      running: this.running,
      completed: this.piscina.completed,
      failed: this.failed,
      timedOut: this.timedOut,
      overloaded: this.overloaded,
      maxQueue: this.maxQueue,
    };
  }

  async close(): Promise<void> {
    await this.piscina.close({ force: true });
  }
}
