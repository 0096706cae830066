/**
 * Runs background renders from the queue in the database (store/render-queue.ts), in every instance
 * that consumes (not PLATEN_ROLE=api): up to `concurrency` at once, each under a lease longer than
 * a render may take. Woken when a render is accepted here, and polling for those accepted elsewhere
 * (an API-only instance, another instance) or left by a dead
 * instance. On SQLite (one process) leases left at start are released at once; on PostgreSQL a dead
 * instance's renders are taken again when their lease ends. Execution is at least once; recording
 * checks the render is still pending, so it is recorded, and charged, once.
 */
import type { Logger } from 'pino';
import type { Store } from '../store/index.ts';
import type { QueuedRender } from '../store/render-queue.ts';
import type { RenderQueue } from './queue.ts';

export interface QueueWorkerOptions {
  store: Store;
  run(render: QueuedRender): Promise<void>;
  instanceId: string;
  logger: Logger;
  singleInstance: boolean;
  /** False on an API-only instance (PLATEN_ROLE=api): dedicated workers poll the table instead. */
  consume?: boolean;
  concurrency: number;
  /** How long a claimed render stays this instance's (well above the render time limit). */
  leaseMs: number;
  pollMs?: number;
}

export class RenderQueueWorker implements RenderQueue {
  readonly kind = 'database';
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private claiming: Promise<void> | null = null;
  private again = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: QueueWorkerOptions) {}

  async start(): Promise<void> {
    if (this.running || this.options.consume === false) return;
    if (this.options.singleInstance) {
      const released = await this.options.store.renderQueue.releaseLeases();
      if (released) this.options.logger.info({ released }, 'background renders interrupted by a stop resume');
    }
    this.running = true;
    this.wake();
  }

  /** Stops claiming and waits for the renders in flight (bounded by `graceMs`). */
  async stop(graceMs = 5_000): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.claiming;
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
  }

  /** The render is in the table already: look now rather than at the next poll. */
  enqueue(_renderId: string): void {
    this.wake();
  }

  /** Looks for queued renders now. */
  wake(): void {
    if (!this.running) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.claiming = this.claimWhileFree().finally(() => {
      this.claiming = null;
      if (!this.running) return;
      this.timer = setTimeout(() => this.wake(), this.options.pollMs ?? 1_000);
      this.timer.unref();
    });
  }

  get active(): number {
    return this.inFlight.size;
  }

  private async claimWhileFree(): Promise<void> {
    const { store, instanceId, leaseMs, concurrency, logger } = this.options;
    try {
      do {
        this.again = false;
        while (this.running && this.inFlight.size < concurrency) {
          const render = await store.renderQueue.claimNext(instanceId, leaseMs);
          if (!render) break;
          const task = this.options
            .run(render)
            .catch((err: unknown) => logger.error({ err, renderId: render.id }, 'background render crashed'))
            .finally(() => {
              this.inFlight.delete(task);
              this.wake();
            });
          this.inFlight.add(task);
        }
      } while (this.again && this.running);
    } catch (err) {
      logger.warn({ err }, 'could not claim background renders; retrying');
    }
  }
}
