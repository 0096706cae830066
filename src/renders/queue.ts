/**
 * Where background renders wait to run. Two kinds with one behaviour (at least once, recorded and
 * charged once, the database's render row the single truth): the database itself (queue-worker.ts,
 * the embedded default) and BullMQ over Redis (bullmq-queue.ts, for many instances and dedicated
 * render workers). An instance that does not `consume` (PLATEN_ROLE=api) only enqueues.
 */
export interface RenderQueue {
  readonly kind: 'database' | 'bullmq';
  /** Starts producing and, when this instance consumes, running renders. */
  start(): Promise<void>;
  /** Stops taking renders and waits for those in flight, at most `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** A background render was accepted and charged: run it (never throws; a lost entry is swept). */
  enqueue(renderId: string): void;
  /** Renders running on this instance now. */
  readonly active: number;
}

export type QueueRole = 'all' | 'api' | 'worker';

/** Whether an instance in this role runs background renders. */
export const consumes = (role: QueueRole): boolean => role !== 'api';
