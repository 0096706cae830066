/** Picks the render queue of this deployment (queue.ts) from its configuration. */
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../core/config.ts';
import { randomBase62 } from '../core/ids.ts';
import type { Store } from '../store/index.ts';
import type { QueuedRender } from '../store/render-queue.ts';
import { consumes, type RenderQueue } from './queue.ts';
import { RenderQueueWorker } from './queue-worker.ts';

export async function createRenderQueue(
  config: Config,
  deps: { store: Store; run(render: QueuedRender): Promise<void>; instanceId: string; logger: Logger },
): Promise<RenderQueue> {
  const common = {
    ...deps,
    consume: consumes(config.PLATEN_ROLE),
    // Two per render process: while one renders, the next is claimed, its inputs loaded and the
    // last one recorded, so the process never waits on the database or the queue between renders.
    concurrency: 2 * (config.PLATEN_RENDER_WORKERS ?? availableParallelism()),
    // Well above a render's time limit (a video's, the longer one): a live holder is never overtaken.
    leaseMs: Math.max(config.PLATEN_RENDER_TIMEOUT_MS, config.PLATEN_VIDEO_TIMEOUT_MS) * 2 + 30_000,
  };
  if (config.queue === 'bullmq' && config.PLATEN_REDIS_URL) {
    // Every instance of this deployment (one database) shares one queue; other deployments on the
    // same Redis have their own.
    await deps.store.meta.claim('deployment_id', randomBase62(16));
    const deploymentId = await deps.store.meta.get('deployment_id');
    // Imported only when configured: bullmq and ioredis are a noticeable part of a start that never
    // uses them (docs/performance.md).
    const { BullRenderQueue } = await import('./bullmq-queue.ts');
    return new BullRenderQueue({
      ...common,
      redisUrl: config.PLATEN_REDIS_URL,
      queueName: `renders-${deploymentId}`,
    });
  }
  return new RenderQueueWorker({ ...common, singleInstance: deps.store.handle.dialect === 'sqlite' });
}
