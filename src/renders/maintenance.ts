/**
 * Background upkeep of renders, per instance: a heartbeat so other instances can tell this one is
 * alive; a sweep that refunds pending renders of dead instances (a crash mid-render leaves no
 * charge without a render); retention, which removes old rendered files and marks them expired; and
 * an orphan-file sweep, which removes stored files no record points to (written just before a
 * crash, left by a failed delete, or the thumbnail of a deleted template). Files younger than a
 * safety margin are never touched, so a render, thumbnail or upload still between writing its file
 * and recording it is safe.
 */
import type { Logger } from 'pino';
import type { CreditService } from '../credits/service.ts';
import type { FileStore } from '../files/index.ts';
import type { Store } from '../store/index.ts';

export interface MaintenanceOptions {
  store: Store;
  credits: CreditService;
  files: FileStore;
  instanceId: string;
  logger: Logger;
  /** Days to keep rendered files; 0 keeps them forever. */
  retentionDays: number;
  /** SQLite is one process: every pending render found at start is an orphan. */
  singleInstance: boolean;
  heartbeatMs?: number;
  /** Only files older than this may be swept as orphans (default 1 hour, far above any render). */
  orphanFileMarginMs?: number;
}

/** How many listed files are checked against the store at once. */
const SWEEP_BATCH = 200;

export class RenderMaintenance {
  private timers: NodeJS.Timeout[] = [];
  private readonly heartbeatMs: number;
  private readonly orphanFileMarginMs: number;
  private stopping = false;
  private fileSweep: Promise<number> | null = null;

  constructor(private readonly options: MaintenanceOptions) {
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.orphanFileMarginMs = options.orphanFileMarginMs ?? 60 * 60 * 1000;
  }

  async start(): Promise<void> {
    const { store, instanceId } = this.options;
    await store.renders.heartbeat(instanceId);
    // At start, anything pending that is not ours and not owned by a live instance is an orphan.
    await this.sweepOrphans(this.options.singleInstance ? new Date(Date.now() + 1000) : this.staleBefore());
    await this.applyRetention();
    // In the background: listing a large store may take a while, and serving must not wait for it.
    this.sweepOrphanFiles().catch((err: unknown) => {
      this.options.logger.warn({ err }, 'orphan file sweep failed');
    });
    this.every(this.heartbeatMs, () => store.renders.heartbeat(instanceId));
    this.every(this.heartbeatMs * 3, () => this.sweepOrphans(this.staleBefore()));
    this.every(60 * 60 * 1000, () => this.applyRetention());
    this.every(60 * 60 * 1000, () => this.sweepOrphanFiles());
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.fileSweep?.catch(() => 0);
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
        await this.options.credits.refund(
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

  /**
   * Deletes the files written before `now` minus the margin that nothing records: under `renders/`
   * no unexpired render output and no template's thumbnail, under `assets/` no asset. Returns how
   * many it deleted.
   */
  async sweepOrphanFiles(now = new Date()): Promise<number> {
    // One at a time: a sweep of a very large store may outlast the hour between two.
    if (this.fileSweep) return 0;
    this.fileSweep = this.sweepAllPrefixes(now);
    try {
      return await this.fileSweep;
    } finally {
      this.fileSweep = null;
    }
  }

  private async sweepAllPrefixes(now: Date): Promise<number> {
    const { store } = this.options;
    const before = now.getTime() - this.orphanFileMarginMs;
    let deleted = 0;
    // Under renders/: render outputs, and template thumbnails (src/thumbnails) which are no render.
    deleted += await this.sweepPrefix('renders/', before, async (keys) => {
      const [outputs, thumbnails] = await Promise.all([
        store.renders.referencedFileKeys(keys),
        store.templates.referencedThumbnailKeys(keys),
      ]);
      return new Set([...outputs, ...thumbnails]);
    });
    deleted += await this.sweepPrefix('assets/', before, (keys) => store.assets.referencedFileKeys(keys));
    // Files a render process wrote for a render that never took them (killed mid-write, or the
    // service stopped before moving them into place).
    deleted += await this.options.files.sweepStaged(new Date(before));
    if (deleted) this.options.logger.info({ deleted }, 'removed stored files that no record references');
    return deleted;
  }

  private async sweepPrefix(
    prefix: string,
    before: number,
    referenced: (keys: string[]) => Promise<Set<string>>,
  ): Promise<number> {
    let deleted = 0;
    let batch: string[] = [];
    const flush = async () => {
      const kept = await referenced(batch);
      for (const key of batch) {
        if (kept.has(key)) continue;
        await this.options.files.delete(key);
        deleted++;
      }
      batch = [];
    };
    for await (const file of this.options.files.list(prefix)) {
      if (this.stopping) return deleted;
      if (file.lastModified.getTime() >= before) continue;
      batch.push(file.key);
      if (batch.length >= SWEEP_BATCH) await flush();
    }
    if (batch.length && !this.stopping) await flush();
    return deleted;
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
