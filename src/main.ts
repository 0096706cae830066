/**
 * Composition root: config → logger → store → files → HTTP app, and graceful shutdown.
 * `npm start` runs this file.
 */

import { buildApp } from './app.ts';
import { bootstrapIfEmpty } from './bootstrap.ts';
import { ConfigError, loadConfig, unknownPlatenVariables } from './core/config.ts';
import { createLogger } from './core/logger.ts';
import { startPeriodic } from './core/periodic.ts';
import { startTracing } from './observability/index.ts';
import { createServices, type Services } from './services.ts';
import { DataDirInUse } from './store/data-dir-lock.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`platen: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const logger = createLogger(config.PLATEN_LOG_LEVEL);
  for (const name of unknownPlatenVariables(process.env))
    logger.warn({ variable: name }, `Unknown variable ${name} is ignored`);
  if (!config.PLATEN_ADMIN_TOKEN) logger.warn('PLATEN_ADMIN_TOKEN is not set: the operator API answers 401');

  let services: Services;
  try {
    services = await createServices(config, logger);
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    process.stderr.write(`platen: ${error.message}\n`);
    process.exit(1);
  }
  if (config.PLATEN_BOOTSTRAP) await bootstrapIfEmpty(services, (text) => process.stdout.write(`${text}\n`));

  const tracing = startTracing({ instanceId: services.instanceId });
  if (tracing) logger.info('OpenTelemetry traces are exported over OTLP/HTTP');
  // A render worker (PLATEN_ROLE=worker) serves only health and metrics, and runs background renders.
  const serving = config.PLATEN_ROLE !== 'worker';
  const { app } = await buildApp(services, logger, { tracer: tracing?.requests, workerOnly: !serving });
  await app.listen({ port: config.PORT, host: config.PLATEN_HOST });
  // Only a process that serves sweeps: a failed start must not touch other instances' renders.
  if (serving) {
    await services.maintenance.start();
    await services.webhookDispatcher.start();
  }
  await services.renderQueue.start();
  const stopUpkeep = startPeriodic(
    serving
      ? [
          { name: 'expired OAuth grants', run: () => services.oauth.sweep() },
          { name: 'expired sign-in sessions', run: () => services.people.sweep() },
        ]
      : [],
    60 * 60 * 1000,
    logger,
  );
  // Thumbnails another instance never rendered (it stopped between a save and its thumbnail), and
  // batches whose completion a stop interrupted.
  const stopThumbnailCatchUp = startPeriodic(
    [
      ...(serving ? [{ name: 'thumbnails never rendered', run: () => services.thumbnails.catchUp() }] : []),
      { name: 'batches to complete', run: () => services.batches.sweep() },
    ],
    30_000,
    logger,
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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const graceMs = config.PLATEN_SHUTDOWN_GRACE_MS;
    logger.info({ signal, graceMs }, 'shutting down: finishing the work in flight');
    const force = setTimeout(() => process.exit(1), graceMs + 5_000);
    force.unref();
    try {
      // Nothing new: the listener closes (requests on open connections get 503), no webhook row
      // is claimed. Renders in flight and webhook attempts in flight finish side by side, within
      // the grace; then connections still open are cut. An interrupted render is refunded and an
      // interrupted delivery sent again, by the orphan sweep of the next instance to start.
      const requests = app.close();
      // close() ends only the connections idle at that moment; a keep-alive connection whose
      // request finishes later would hold it open until the cut, so idle ones are ended as they come.
      const idle = setInterval(() => app.server.closeIdleConnections(), 100);
      const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
      await Promise.all([
        requests,
        services.webhookDispatcher.stop(graceMs),
        services.renderQueue.stop(graceMs),
      ]);
      clearInterval(idle);
      clearTimeout(cut);
      await Promise.all([stopUpkeep(), stopThumbnailCatchUp()]);
      await services.close();
      await tracing?.shutdown().catch((err: unknown) => logger.warn({ err }, 'could not flush traces'));
      logger.info('stopped');
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await main();
