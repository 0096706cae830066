/**
 * Small recurring upkeep (expired sign-in sessions, OAuth codes and tokens): each job runs at start
 * and then every `intervalMs`, one run at a time, its failures logged and never thrown. Timers are
 * unref'd so they never keep a process alive; `stop()` waits for a run in flight.
 */
import type { Logger } from 'pino';

export interface PeriodicJob {
  name: string;
  run(): Promise<unknown>;
}

export function startPeriodic(
  jobs: readonly PeriodicJob[],
  intervalMs: number,
  logger: Logger,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const runAll = () => {
    if (running) return;
    running = (async () => {
      for (const job of jobs) {
        await job.run().catch((err: unknown) => logger.warn({ err, job: job.name }, 'upkeep job failed'));
      }
    })().finally(() => {
      running = null;
    });
  };
  runAll();
  const timer = setInterval(runAll, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
