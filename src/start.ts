/**
 * Starts Platen from a configuration: the one start-up sequence, run by `npm start` (main.ts) and by
 * the test harness alike, so the tests serve exactly what production serves.
 *
 *   services → bootstrap (on an empty database, when enabled) → tracing → HTTP app → listen →
 *   maintenance, webhook dispatcher (serving instances only) and render queue → periodic upkeep.
 *
 * `stop(graceMs)` is the graceful shutdown, in the reverse order (see its comment). A start that
 * fails after the services exist closes what it had opened and throws.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import { bootstrapIfEmpty } from './bootstrap.ts';
import type { Config } from './core/config.ts';
import { startPeriodic } from './core/periodic.ts';
import type { RegisteredRoute } from './http/auth-hook.ts';
import { startTracing, type Tracing } from './observability/index.ts';
import { createServices, type Services } from './services.ts';
import type { OpenDatabaseOptions } from './store/index.ts';

/** How often the hourly upkeep (expired OAuth grants, sign-in sessions) and the catch-up run. */
export const UPKEEP_INTERVAL_MS = 60 * 60 * 1000;
export const CATCH_UP_INTERVAL_MS = 30_000;

export interface StartOptions {
  /** Passed to the store (the test harness's PostgreSQL schema). */
  database?: Partial<OpenDatabaseOptions>;
  /** Where the bootstrap prints the key and setup link it created (default: standard output). */
  print?: (text: string) => void;
  /** The environment OpenTelemetry is configured from (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface RunningPlaten {
  app: FastifyInstance;
  routes: RegisteredRoute[];
  services: Services;
  /** The address the listener is bound to, as Fastify reports it. */
  url: string;
  /** False for a render worker (PLATEN_ROLE=worker): health and metrics only. */
  serving: boolean;
  /** Graceful shutdown within `graceMs` (default PLATEN_SHUTDOWN_GRACE_MS); once, however often called. */
  stop(graceMs?: number): Promise<void>;
}

export async function startPlaten(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningPlaten> {
  // DataDirInUse (another process holds the embedded database) is thrown from here: main exits on it.
  const services = await createServices(config, logger, options.database);
  const print = options.print ?? ((text: string) => void process.stdout.write(`${text}\n`));
  // A render worker (PLATEN_ROLE=worker) serves only health and metrics, and runs background renders.
  const serving = config.PLATEN_ROLE !== 'worker';
  let tracing: Tracing | null = null;
  let app: FastifyInstance | undefined;
  const upkeep: Array<() => Promise<void>> = [];
  try {
    if (config.PLATEN_BOOTSTRAP) await bootstrapIfEmpty(services, print);

    tracing = await startTracing({ instanceId: services.instanceId, env: options.env });
    if (tracing) logger.info('OpenTelemetry traces are exported over OTLP/HTTP');
    const built = await buildApp(services, logger, { tracer: tracing?.requests, workerOnly: !serving });
    app = built.app;
    const url = await app.listen({ port: config.PORT, host: config.PLATEN_HOST });
    // Only a process that serves sweeps: a failed start must not touch other instances' renders.
    if (serving) {
      await services.maintenance.start();
      await services.webhookDispatcher.start();
    }
    await services.renderQueue.start();
    upkeep.push(
      startPeriodic(
        serving
          ? [
              { name: 'expired OAuth grants', run: () => services.oauth.sweep() },
              { name: 'expired sign-in sessions', run: () => services.people.sweep() },
            ]
          : [],
        UPKEEP_INTERVAL_MS,
        logger,
      ),
    );
    // Thumbnails another instance never rendered (it stopped between a save and its thumbnail), and
    // batches whose completion a stop interrupted.
    upkeep.push(
      startPeriodic(
        [
          ...(serving
            ? [{ name: 'thumbnails never rendered', run: () => services.thumbnails.catchUp() }]
            : []),
          { name: 'batches to complete', run: () => services.batches.sweep() },
        ],
        CATCH_UP_INTERVAL_MS,
        logger,
      ),
    );
    const { store, files, instanceId, renderQueue } = services;
    logger.info(
      {
        baseUrl: config.baseUrl,
        database: store.handle.dialect,
        files: files.kind,
        queue: renderQueue.kind,
        role: config.PLATEN_ROLE,
        instanceId,
      },
      serving ? 'Platen is listening' : 'Platen render worker is running',
    );

    const listening = app;
    let stopping: Promise<void> | null = null;
    const stop = (graceMs = config.PLATEN_SHUTDOWN_GRACE_MS) => {
      stopping ??= (async () => {
        // Nothing new: the listener closes (requests on open connections get 503), no webhook row
        // is claimed. Renders in flight and webhook attempts in flight finish side by side, within
        // the grace; then connections still open are cut. An interrupted render is refunded and an
        // interrupted delivery sent again, by the orphan sweep of the next instance to start.
        const requests = listening.close();
        // close() ends only the connections idle at that moment; a keep-alive connection whose
        // request finishes later would hold it open until the cut, so idle ones are ended as they come.
        const idle = setInterval(() => listening.server.closeIdleConnections(), 100);
        const cut = setTimeout(() => listening.server.closeAllConnections(), graceMs);
        try {
          await Promise.all([
            requests,
            services.webhookDispatcher.stop(graceMs),
            services.renderQueue.stop(graceMs),
          ]);
        } finally {
          clearInterval(idle);
          clearTimeout(cut);
        }
        await Promise.all(upkeep.map((stopOne) => stopOne()));
        await services.close();
        await tracing?.shutdown().catch((err: unknown) => logger.warn({ err }, 'could not flush traces'));
      })();
      return stopping;
    };
    return { app, routes: built.routes, services, url, serving, stop };
  } catch (error) {
    // A failed start (the port taken, the bootstrap's database write refused, …): close what it opened.
    await Promise.all(upkeep.map((stopOne) => stopOne()));
    await app?.close().catch(() => {});
    await services
      .close()
      .catch((err: unknown) => logger.warn({ err }, 'could not close after a failed start'));
    await tracing?.shutdown().catch(() => {});
    throw error;
  }
}
