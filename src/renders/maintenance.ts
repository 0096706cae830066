/**
 * Background upkeep of renders, per instance: a heartbeat so other instances can tell this one is
 * alive; a sweep that refunds pending renders of dead instances (a crash mid-render leaves no
 * charge without a render); and retention, which removes old rendered files and marks them expired.
 */
import type { Logger } from 'pino';
import type { FileStore } from '../files/index.ts';
import type { Store } from '../store/index.ts';

export interface MaintenanceOptions {
  store: Store;
  files: FileStore;
  instanceId: string;
  logger: Logger;
  /** Days to keep rendered files; 0 keeps them forever. */
  retentionDays: number;
  /** SQLite is one process: every pending render found at start is an orphan. */
  singleInstance: boolean;
  heartbeatMs?: number;
}

export class RenderMaintenance {
  private timers: NodeJS.Timeout[] = [];
  private readonly heartbeatMs: number;

  constructor(private readonly options: MaintenanceOptions) {
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
  }

  async start(): Promise<void> {
    const { store, instanceId } = this.options;
    await store.renders.heartbeat(instanceId);
    // At start, anything pending that is not ours and not owned by a live instance is an orphan.
    await this.sweepOrphans(this.options.singleInstance ? new Date(Date.now() + 1000) : this.staleBefore());
    await this.applyRetention();
    this.every(this.heartbeatMs, () => store.renders.heartbeat(instanceId));
    this.every(this.heartbeatMs * 3, () => this.sweepOrphans(this.staleBefore()));
    this.every(60 * 60 * 1000, () => this.applyRetention());
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.options.store.renders.forgetInstance(this.options.instanceId).catch(() => {});
  }

  /** Refunds pending renders whose instance has not beaten since `staleBefore`. */
  async sweepOrphans(staleBefore: Date): Promise<number> {
    const orphans = await this.options.store.renders.orphans(
      staleBefore.toISOString(),
      this.options.instanceId,
    );
    let refunded = 0;
    for (const job of orphans) {
      if (
        await this.options.store.renders.fail(
          job.id,
          { code: 'RENDER_FAILED', details: { reason: 'interrupted' } },
          'refund: render interrupted',
        )
      ) {
        refunded++;
      }
    }
    if (refunded)
      this.options.logger.warn({ refunded }, 'refunded renders interrupted by a stopped instance');
    return refunded;
  }

  /** Removes files of renders older than the retention; they stop counting as earlier renders. */
  async applyRetention(now = new Date()): Promise<number> {
    const days = this.options.retentionDays;
    if (days <= 0) return 0;
    const before = new Date(now.getTime() - days * 86_400_000).toISOString();
    let expired = 0;
    for (;;) {
      const batch = await this.options.store.renders.expirable(before, 100);
      if (batch.length === 0) break;
      for (const render of batch) {
        // Expired first: from then on no replay can hand out a URL whose file is going away.
        await this.options.store.renders.markExpired(render.id);
        for (const key of render.fileKeys) {
          await this.options.files.delete(key).catch((err: unknown) => {
            this.options.logger.warn({ err, renderId: render.id }, 'could not remove an expired render file');
          });
        }
        expired++;
      }
    }
    if (expired) this.options.logger.info({ expired }, 'removed rendered files past retention');
    return expired;
  }

  private staleBefore(): Date {
    return new Date(Date.now() - this.heartbeatMs * 6);
  }

  private every(ms: number, task: () => Promise<unknown>): void {
    const timer = setInterval(() => {
      task().catch((err: unknown) => this.options.logger.warn({ err }, 'render maintenance task failed'));
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }
}
