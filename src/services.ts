/**
 * Builds every long-lived part from the configuration, in one place, for the service and the test
 * harness alike: store → files → render pool → rate limiter → render service → upkeep.
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from './core/config.ts';
import { randomBase62 } from './core/ids.ts';
import { createFileStore, type FileStore } from './files/index.ts';
import type { AppDeps } from './http/context.ts';
import { createRateLimiter, type RateLimiter } from './ratelimit/index.ts';
import { RenderPool } from './render/index.ts';
import { JobInputLoader } from './renders/job-inputs.ts';
import { RenderMaintenance } from './renders/maintenance.ts';
import { RenderService } from './renders/service.ts';
import { lockDataDir } from './store/data-dir-lock.ts';
import { type OpenDatabaseOptions, openStore, type Store } from './store/index.ts';

export interface Services extends AppDeps {
  pool: RenderPool;
  limiter: RateLimiter | null;
  maintenance: RenderMaintenance;
  instanceId: string;
  close(): Promise<void>;
}

export async function createServices(
  config: Config,
  logger: Logger,
  database: Partial<OpenDatabaseOptions> = {},
): Promise<Services> {
  const embedded = !config.DATABASE_URL;
  if (embedded) mkdirSync(config.dataDir, { recursive: true });
  const unlock = embedded ? lockDataDir(config.dataDir) : () => {};
  const store: Store = await openStore({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    ...database,
  });
  const files: FileStore = createFileStore({ dataDir: config.dataDir, s3: config.s3 });
  const pool = new RenderPool({
    workers: config.PLATEN_RENDER_WORKERS ?? availableParallelism(),
    maxQueue: config.PLATEN_RENDER_QUEUE,
    timeoutMs: config.PLATEN_RENDER_TIMEOUT_MS,
    recycleRssMb: config.PLATEN_RENDER_RECYCLE_RSS_MB,
    maxRssMb: config.PLATEN_RENDER_MAX_RSS_MB,
  });
  const limiter = createRateLimiter({
    perMinute: config.PLATEN_RENDER_RATE_LIMIT,
    redisUrl: config.PLATEN_REDIS_URL,
    warn: (message, err) => logger.warn({ err }, message),
  });
  const instanceId = `ins_${randomBase62(16)}`;
  const renders = new RenderService({
    store,
    files,
    pool,
    inputs: new JobInputLoader(store, files),
    baseUrl: config.baseUrl,
    instanceId,
    allowPrivateUrls: config.PLATEN_ALLOW_PRIVATE_URLS,
    timeoutMs: config.PLATEN_RENDER_TIMEOUT_MS,
  });
  const maintenance = new RenderMaintenance({
    store,
    files,
    instanceId,
    logger,
    retentionDays: config.PLATEN_RENDER_RETENTION_DAYS,
    singleInstance: store.handle.dialect === 'sqlite',
  });
  return {
    config,
    store,
    files,
    pool,
    limiter,
    renders,
    maintenance,
    instanceId,
    async close() {
      await maintenance.stop();
      await pool.close();
      await limiter?.close();
      await files.close();
      await store.close();
      unlock();
    },
  };
}
