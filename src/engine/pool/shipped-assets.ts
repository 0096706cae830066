/**
 * Asset bytes cross to a render process once, not with every job: a template's photo (hundreds of
 * KB to 20 MB) was copied through the IPC channel on every render. The pool remembers which asset
 * ids each process has been sent and sends those as ids only; the process keeps asset bytes by id
 * (assets are immutable: a new upload is a new id) in a cache bounded in bytes, and answers
 * `need-assets` when it has dropped one, so the pool sends the whole job again. Only ids the
 * service put in this job are ever looked up, so no job reaches another job's assets.
 */
import { cacheBytes } from '../backends/cache-limits.ts';
import { Lru } from '../backends/lru.ts';
import type { JobAsset, RenderJob } from '../types.ts';

/** Pool side, one per process: splits a job's assets into bytes to send and ids it already holds. */
export class ShippedAssets {
  private readonly sent = new Set<string>();

  constructor(private readonly limit = 4096) {}

  split(job: RenderJob): { job: RenderJob; knownAssets: string[] } {
    const assets: Record<string, JobAsset> = {};
    const knownAssets: string[] = [];
    for (const [id, asset] of Object.entries(job.assets)) {
      if (this.sent.has(id)) knownAssets.push(id);
      else assets[id] = asset;
    }
    if (this.sent.size + Object.keys(assets).length > this.limit) this.sent.clear();
    for (const id of Object.keys(assets)) this.sent.add(id);
    return { job: { ...job, assets }, knownAssets };
  }

  /** The process lost some: next time, everything goes again. */
  forget(): void {
    this.sent.clear();
  }
}

const held = new Lru<string, JobAsset>({
  name: 'process-assets',
  maxEntries: 4096,
  maxWeight: cacheBytes('processAssets'),
  weigh: (asset) => asset.bytes.byteLength,
});

/** Process side: the job with every asset's bytes, or null when one it should hold is gone. */
export function withHeldAssets(job: RenderJob, knownAssets: readonly string[]): RenderJob | null {
  for (const [id, asset] of Object.entries(job.assets)) held.set(id, asset);
  const assets: Record<string, JobAsset> = { ...job.assets };
  for (const id of knownAssets) {
    const asset = held.get(id);
    if (!asset) return null;
    assets[id] = asset;
  }
  return { ...job, assets };
}
