/**
 * Background renders on BullMQ over Redis (the Redis of the rate limits): for many instances, and
 * for dedicated render workers (PLATEN_ROLE=worker, `platen worker`) that scale apart from the API.
 *
 * The database stays the truth. A render is charged and stored as pending first; its queue entry
 * only carries the render id (the BullMQ job id, so entering it twice is one job). A worker claims
 * the pending row by id and runs it; the outcome is recorded only while the row is pending, so a
 * render run twice is recorded, and charged, once. BullMQ's job lock (renewed while the worker
 * lives) is what keeps other workers off a render: a killed worker's job is found stalled within
 * LOCK_MS + STALLED_CHECK_MS and run again elsewhere (at least once). An entry lost anyway (a stop
 * between the charge and the enqueue, Redis unreachable, a job given up) is entered again by the
 * sweep of every producing instance once its render has waited STRANDED_AFTER_MS with no lease.
 */
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Store } from '../store/index.ts';
import type { QueuedRender } from '../store/render-queue.ts';
import type { RenderQueue } from './queue.ts';

/** How long a worker's hold on a job lasts without renewal (renewed at half of it). */
export const LOCK_MS = 15_000;
const STALLED_CHECK_MS = 15_000;
/** A pending render with no lease, older than this, has lost its queue entry. */
const STRANDED_AFTER_MS = 60_000;
const SWEEP_EVERY_MS = 30_000;
const SWEEP_BATCH = 500;

interface RenderJobData {
  renderId: string;
}

export interface BullRenderQueueOptions {
  redisUrl: string;
  /** One queue per deployment (the id kept in its database), so deployments can share a Redis. */
  queueName: string;
  store: Store;
  run(render: QueuedRender): Promise<void>;
  instanceId: string;
  logger: Logger;
  consume: boolean;
  concurrency: number;
  /** The database lease a claim records (observability, and the stranded sweep's test). */
  leaseMs: number;
}

export class BullRenderQueue implements RenderQueue {
  readonly kind = 'bullmq';
  private queue: Queue<RenderJobData> | null = null;
  private worker: Worker<RenderJobData> | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private running = 0;

  constructor(private readonly options: BullRenderQueueOptions) {}

  async start(): Promise<void> {
    if (this.queue) return;
    const { redisUrl, queueName, logger, consume, concurrency } = this.options;
    // BullMQ wants commands to wait for a reconnect rather than fail (maxRetriesPerRequest: null).
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null, enableOfflineQueue: true });
    this.queue = new Queue<RenderJobData>(queueName, {
      connection,
      prefix: 'platen',
      defaultJobOptions: {
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    });
    this.queue.on('error', (err) => logger.warn({ err }, 'render queue (Redis) error'));
    if (consume) {
      this.worker = new Worker<RenderJobData>(queueName, (job) => this.process(job), {
        connection: new Redis(redisUrl, { maxRetriesPerRequest: null }),
        prefix: 'platen',
        concurrency,
        lockDuration: LOCK_MS,
        stalledInterval: STALLED_CHECK_MS,
        // A render whose worker died again and again is still only pending: keep recovering it.
        maxStalledCount: 1_000,
      });
      this.worker.on('error', (err) => logger.warn({ err }, 'render worker (Redis) error'));
    }
    this.sweeper = setInterval(() => void this.requeueStranded(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  async stop(graceMs = 5_000): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    const { worker, queue } = this;
    this.worker = null;
    this.queue = null;
    if (worker) {
      // close() waits for the jobs in flight; past the grace they are left to the stalled check.
      const grace = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
      if ((await Promise.race([worker.close(), grace])) === 'late') await worker.close(true);
    }
    await queue?.close();
  }

  enqueue(renderId: string): void {
    const queue = this.queue;
    if (!queue) return;
    queue
      .add('render', { renderId }, { jobId: renderId })
      .catch((err: unknown) =>
        this.options.logger.warn({ err, renderId }, 'could not queue a background render; the sweep will'),
      );
  }

  get active(): number {
    return this.running;
  }

  /** Enters again the pending renders whose queue entry was lost (see the file comment). */
  async requeueStranded(now = new Date()): Promise<number> {
    const queue = this.queue;
    if (!queue) return 0;
    try {
      const ids = await this.options.store.renderQueue.stranded(
        new Date(now.getTime() - STRANDED_AFTER_MS),
        SWEEP_BATCH,
        now,
      );
      if (ids.length > 0)
        await queue.addBulk(
          ids.map((renderId) => ({ name: 'render', data: { renderId }, opts: { jobId: renderId } })),
        );
      return ids.length;
    } catch (err) {
      this.options.logger.warn({ err }, 'could not sweep background renders; retrying');
      return 0;
    }
  }

  private async process(job: Job<RenderJobData>): Promise<void> {
    const { store, instanceId, leaseMs, run } = this.options;
    const render = await store.renderQueue.claim(job.data.renderId, instanceId, leaseMs);
    if (!render) return; // done, failed (refunded) or cancelled meanwhile: nothing to do
    this.running += 1;
    try {
      await run(render);
    } finally {
      this.running -= 1;
    }
  }
}
