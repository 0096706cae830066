/**
 * Composition root of `npm start`: configuration → logger → startPlaten (start.ts: services, HTTP
 * app, background work, upkeep) → graceful shutdown on SIGTERM or SIGINT. `npm start` runs this file.
 */

import { ConfigError, loadConfig, unknownPlatenVariables } from './core/config.ts';
import { createLogger } from './core/logger.ts';
import { type RunningPlaten, startPlaten } from './start.ts';
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

  let platen: RunningPlaten;
  try {
    // The bootstrap (an empty database) prints its key and setup link to standard output.
    platen = await startPlaten(config, logger);
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    process.stderr.write(`platen: ${error.message}\n`);
    process.exit(1);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const graceMs = config.PLATEN_SHUTDOWN_GRACE_MS;
    logger.info({ signal, graceMs }, 'shutting down: finishing the work in flight');
    // Past the grace (and the close after it), the process goes anyway.
    const force = setTimeout(() => process.exit(1), graceMs + 5_000);
    force.unref();
    try {
      // start.ts: the listener closes, renders and webhook attempts in flight finish within the
      // grace, connections still open are cut, then the services close and the traces are flushed.
      await platen.stop(graceMs);
      logger.info('stopped');
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await main();
