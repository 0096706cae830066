/**
 * Builds every long-lived part from the configuration, in one place, for the service and the test
 * harness alike, in dependency order (each part is built after everything it uses): data-dir lock →
 * store → files → render pool → rate limiter → metrics → one service per feature (credits,
 * templates, workspaces, API keys, …, renders, thumbnails) → webhook dispatcher → render upkeep →
 * background renders, batches and the render queue (the one cycle, bound explicitly below) → the
 * listeners between them, wired last. Nothing is started here: start.ts starts what runs.
 * `close()` takes it down in the reverse order.
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { AssetService } from './assets/index.ts';
import { AuditLog, AuditTrail } from './audit/index.ts';
import { ApiKeyService, EmbedSessionTokens } from './auth/index.ts';
import { BatchService } from './batches/index.ts';
import { ConsoleSessions } from './console/index.ts';
import type { Config } from './core/config.ts';
import { randomBase62 } from './core/ids.ts';
import { CreditService } from './credits/service.ts';
import { EmbedService } from './embeds/index.ts';
import { RenderPool } from './engine/index.ts';
import { createFileStore, type FileStore } from './files/index.ts';
import { OAuthService, oauthSettings } from './oauth/index.ts';
import { Metrics } from './observability/index.ts';
import { PeopleService } from './people/index.ts';
import { PreflightService } from './preflight/index.ts';
import { createRateLimiter, type RateLimiter } from './ratelimit/index.ts';
import { RenderUrlService } from './render-urls/index.ts';
import {
  BackgroundRenders,
  createRenderQueue,
  JobInputLoader,
  RenderHistory,
  RenderMaintenance,
  type RenderQueue,
  RenderService,
} from './renders/index.ts';
import { lockDataDir } from './store/data-dir-lock.ts';
import { type OpenDatabaseOptions, openStore, type Store } from './store/index.ts';
import { TemplateService } from './templates/index.ts';
import { ThumbnailService } from './thumbnails/index.ts';
import { TemplateVersionService } from './versions/index.ts';
import {
  batchEventSink,
  renderEventSink,
  WebhookDispatcher,
  WebhookService,
  webhookEventSink,
  webhookPolicy,
} from './webhooks/index.ts';
import { WorkspaceService } from './workspaces/service.ts';

export interface Services {
  config: Config;
  store: Store;
  files: FileStore;
  credits: CreditService;
  workspaces: WorkspaceService;
  apiKeys: ApiKeyService;
  templates: TemplateService;
  templateVersions: TemplateVersionService;
  preflight: PreflightService;
  thumbnails: ThumbnailService;
  renderUrls: RenderUrlService;
  embeds: EmbedService;
  embedTokens: EmbedSessionTokens;
  assets: AssetService;
  renders: RenderService;
  renderHistory: RenderHistory;
  pool: RenderPool;
  limiter: RateLimiter | null;
  maintenance: RenderMaintenance;
  webhooks: WebhookService;
  /** Delivers the webhook outbox in the background; started by whoever serves (main, test harness). */
  webhookDispatcher: WebhookDispatcher;
  background: BackgroundRenders;
  batches: BatchService;
  renderQueue: RenderQueue;
  people: PeopleService;
  /** The audit log as operators read it (every service writes through one AuditTrail). */
  audit: AuditLog;
  /** People's console sessions as credentials (the console, and /v1 and /admin for the console). */
  consoleSessions: ConsoleSessions;
  oauth: OAuthService;
  /** This instance's Prometheus metrics (`/metrics`). */
  metrics: Metrics;
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
  const files: FileStore = await createFileStore({ dataDir: config.dataDir, s3: config.s3 });
  const pool = new RenderPool({
    workers: config.PLATEN_RENDER_WORKERS ?? availableParallelism(),
    maxQueue: config.PLATEN_RENDER_QUEUE,
    timeoutMs: config.PLATEN_RENDER_TIMEOUT_MS,
    recycleRssMb: config.PLATEN_RENDER_RECYCLE_RSS_MB,
    maxRssMb: config.PLATEN_RENDER_MAX_RSS_MB,
    videoTimeoutMs: config.PLATEN_VIDEO_TIMEOUT_MS,
    videoConcurrency: config.PLATEN_VIDEO_CONCURRENCY,
  });
  const limiter = await createRateLimiter({
    perMinute: config.PLATEN_RENDER_RATE_LIMIT,
    redisUrl: config.PLATEN_REDIS_URL,
    warn: (message, err) => logger.warn({ err }, message),
  });
  const instanceId = `ins_${randomBase62(16)}`;
  const metrics = new Metrics({
    pool: () => pool.stats(),
    webhookBacklog: () => store.webhooks.backlog(),
  });

  // Features that need only the store (and each other, in this order). One audit writer for all.
  const trail = new AuditTrail(store);
  const credits = new CreditService(store, trail);
  const webhookTargets = webhookPolicy(config.PLATEN_ALLOW_PRIVATE_URLS, config.PLATEN_WEBHOOK_TIMEOUT_MS);
  const templates = new TemplateService(store, { baseUrl: config.baseUrl, events: webhookEventSink(store) });
  const workspaces = new WorkspaceService(store, credits, trail);
  const apiKeys = new ApiKeyService(store, trail);
  const embedTokens = new EmbedSessionTokens(store);
  const embeds = new EmbedService(store, embedTokens, trail);
  const assets = new AssetService(store, files, {
    maxBytes: config.PLATEN_MAX_ASSET_BYTES,
    baseUrl: config.baseUrl,
    allowPrivateUrls: config.PLATEN_ALLOW_PRIVATE_URLS,
  });
  const webhooks = new WebhookService(store, trail, { policy: webhookTargets });
  const audit = new AuditLog(store);
  const people = new PeopleService(store, trail, {
    sessionTtlSeconds: config.PLATEN_SIGNIN_SESSION_TTL_SECONDS,
    maxFailuresPerAccount: config.PLATEN_SIGNIN_MAX_FAILURES_PER_ACCOUNT,
    maxFailuresPerAddress: config.PLATEN_SIGNIN_MAX_FAILURES_PER_ADDRESS,
    lockoutWindowSeconds: config.PLATEN_SIGNIN_LOCKOUT_WINDOW_SECONDS,
  });
  const consoleSessions = new ConsoleSessions(people, store, config.baseUrl);
  const oauth = new OAuthService(
    store,
    oauthSettings({
      baseUrl: config.baseUrl,
      accessTtlSeconds: config.PLATEN_OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTtlSeconds: config.PLATEN_OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      registrationsPerHour: config.PLATEN_OAUTH_REGISTRATIONS_PER_HOUR,
    }),
  );

  // Rendering: the render service over the pool, and what reads renders back.
  const inputs = new JobInputLoader(store, files, config.PLATEN_CACHE_JOB_INPUTS_MB * 1024 * 1024);
  const renders = new RenderService({
    store,
    templates,
    credits,
    files,
    pool,
    inputs,
    baseUrl: config.baseUrl,
    instanceId,
    allowPrivateUrls: config.PLATEN_ALLOW_PRIVATE_URLS,
    timeoutMs: config.PLATEN_RENDER_TIMEOUT_MS,
    videoTimeoutMs: config.PLATEN_VIDEO_TIMEOUT_MS,
    observe: (render) => metrics.observeRender(render),
  });
  const templateVersions = new TemplateVersionService({
    store,
    templates,
    audit: trail,
    inputs,
    render: (job) => pool.render(job),
    allowPrivateUrls: config.PLATEN_ALLOW_PRIVATE_URLS,
  });
  const preflight = new PreflightService({
    templates,
    inputs,
    render: (job) => pool.render(job),
    allowPrivateUrls: config.PLATEN_ALLOW_PRIVATE_URLS,
    timeoutMs: config.PLATEN_RENDER_TIMEOUT_MS,
  });
  const renderHistory = new RenderHistory(store);
  const renderUrls = new RenderUrlService({
    store,
    renders,
    templates,
    files,
    audit: trail,
    graceSeconds: config.PLATEN_URL_SECRET_GRACE_SECONDS,
    baseUrl: config.baseUrl,
  });
  // Never charged; one at a time, and none started while paid renders wait for a process.
  const thumbnails = new ThumbnailService({
    store,
    files,
    inputs,
    render: (job) => pool.render(job),
    busy: () => pool.stats().queued > 0,
    logger,
    allowPrivateUrls: config.PLATEN_ALLOW_PRIVATE_URLS,
  });

  // Background work (started by start.ts, stopped by close() below).
  const webhookDispatcher = new WebhookDispatcher({
    store,
    logger,
    policy: webhookTargets,
    singleInstance: store.handle.dialect === 'sqlite',
    leaseMs: config.PLATEN_WEBHOOK_LEASE_MS,
    onAttempt: (outcome) => metrics.observeWebhookAttempt(outcome),
  });
  const maintenance = new RenderMaintenance({
    store,
    credits,
    files,
    instanceId,
    logger,
    retentionDays: config.PLATEN_RENDER_RETENTION_DAYS,
    singleInstance: store.handle.dialect === 'sqlite',
  });

  // Background renders: accepted and charged by a request, run by this worker (or another instance's).
  // The one real cycle in this graph: BackgroundRenders hands each accepted render to the render
  // queue (`enqueue`) and reports each finished one to the batches (`finished`), while the queue runs
  // renders through BackgroundRenders (`run`) and the batches accept theirs through it. It is broken
  // here, explicitly: BackgroundRenders is built against a late-bound port, then the batches and the
  // queue are built with the real BackgroundRenders, then the port is bound to them. Binding happens
  // before createServices returns, so before anything starts: nothing can call the port earlier
  // (a call before then is a bug, and throws).
  const backgroundPort = lateBoundBackgroundPort();
  const background = new BackgroundRenders({
    service: renders,
    store,
    credits,
    instanceId,
    baseUrl: config.baseUrl,
    outcome: renderEventSink(store),
    enqueue: backgroundPort.enqueue,
    finished: backgroundPort.finished,
  });
  const batches = new BatchService({
    store,
    renders,
    background,
    credits,
    templates,
    preflight,
    baseUrl: config.baseUrl,
    events: batchEventSink(store),
  });
  const renderQueue = await createRenderQueue(config, {
    store,
    run: (render) => background.run(render),
    instanceId,
    logger,
  });
  backgroundPort.bind({ renderQueue, batches });

  // Listeners, in one place, once everything exists.
  // A change that may have written events wakes the dispatcher, so delivery does not wait for a poll.
  templates.onChange(() => webhookDispatcher.wake());
  templates.onChange((template) => thumbnails.templateChanged(template));

  return {
    config,
    store,
    files,
    pool,
    limiter,
    metrics,
    instanceId,
    credits,
    templates,
    templateVersions,
    preflight,
    workspaces,
    apiKeys,
    embedTokens,
    embeds,
    assets,
    webhooks,
    audit,
    people,
    consoleSessions,
    oauth,
    renders,
    renderHistory,
    renderUrls,
    thumbnails,
    webhookDispatcher,
    maintenance,
    background,
    batches,
    renderQueue,
    /** The reverse of construction: what runs in the background first, the store and the lock last. */
    async close() {
      await renderQueue.stop();
      await maintenance.stop();
      await webhookDispatcher.stop();
      await thumbnails.close();
      await limiter?.close();
      await pool.close();
      await files.close();
      await store.close();
      unlock();
    },
  };
}

/** What BackgroundRenders calls outward, bound once the render queue and the batches exist. */
function lateBoundBackgroundPort(): {
  enqueue(renderId: string): void;
  finished(renderId: string): Promise<void>;
  bind(targets: { renderQueue: RenderQueue; batches: BatchService }): void;
} {
  let targets: { renderQueue: RenderQueue; batches: BatchService } | null = null;
  const bound = () => {
    if (!targets) throw new Error('background renders used before the render queue and batches were bound');
    return targets;
  };
  return {
    enqueue: (renderId) => bound().renderQueue.enqueue(renderId),
    finished: (renderId) => bound().batches.renderFinished(renderId),
    bind(next) {
      if (targets) throw new Error('background renders are bound once');
      targets = next;
    },
  };
}
