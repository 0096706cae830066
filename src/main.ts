/**
 * Composition root: config → logger → store → files → HTTP app, and graceful shutdown.
 * `npm start` runs this file.
 */

import { buildApp } from './app.ts';
import { bootstrapIfEmpty } from './bootstrap.ts';
import { ConfigError, loadConfig, unknownPlatenVariables } from './core/config.ts';
import { createLogger } from './core/logger.ts';
import { startPeriodic } from './core/periodic.ts';
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

  const { app } = await buildApp(services, logger);
  await app.listen({ port: config.PORT, host: config.PLATEN_HOST });
  // Only a process that serves sweeps: a failed start must not touch other instances' renders.
  await services.maintenance.start();
  await services.webhookDispatcher.start();
  const stopUpkeep = startPeriodic(
    [
      { name: 'expired OAuth grants', run: () => services.oauth.sweep() },
      { name: 'expired sign-in sessions', run: () => services.people.sweep() },
    ],
    60 * 60 * 1000,
    logger,
  );
  const { store, files, instanceId } = services;
  logger.info(
    { baseUrl: config.baseUrl, database: store.handle.dialect, files: files.kind, instanceId },
    'Platen is listening',
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      // In-flight requests get 10 s to finish; then connections still open are cut (a keep-alive
      // socket Node does not count as idle would otherwise hold the close until the forced exit).
      const closing = app.close();
      setTimeout(() => app.server.closeAllConnections(), 10_000).unref();
      await closing;
      await stopUpkeep();
      await services.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await main();
