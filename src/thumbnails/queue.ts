/**
 * A coalescing work queue keyed by id: per key at most one run in flight and at most one waiting,
 * however often the key is pushed. A push while the key runs marks it to run once more afterwards;
 * a push while it waits changes nothing. A first push waits `debounceMs` before it may start, so a
 * burst of pushes becomes one run. Bounded: at most `maxPending` keys wait (further new keys are
 * dropped and reported) and at most `concurrency` run at once; while `busy()` says so, nothing
 * new starts. Runs never throw out of the queue: failures go to `onError`.
 */

export interface CoalescingQueueOptions {
  run(key: string): Promise<void>;
  debounceMs: number;
  concurrency: number;
  maxPending: number;
  /** While true (e.g. paid renders wait for a render process), no run starts; asked again shortly. */
  busy?: () => boolean;
  onDrop?(key: string): void;
  onError?(key: string, error: unknown): void;
}

export type PushOutcome = 'queued' | 'coalesced' | 'dropped' | 'closed';

export interface QueueStats {
  pending: number;
  running: number;
  started: number;
  coalesced: number;
  dropped: number;
}

/** How long a busy pool holds back the next start before it is asked again. */
const BUSY_RETRY_MS = 250;

export class CoalescingQueue {
  /** Waiting keys → when they may start, in the order they were first pushed. */
  private readonly pending = new Map<string, number>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly idleWaiters: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private started = 0;
  private coalesced = 0;
  private dropped = 0;

  constructor(private readonly options: CoalescingQueueOptions) {}

  push(key: string): PushOutcome {
    if (this.closed) return 'closed';
    if (this.pending.has(key)) {
      this.coalesced++;
      return 'coalesced';
    }
    if (this.pending.size >= this.options.maxPending) {
      this.dropped++;
      this.options.onDrop?.(key);
      return 'dropped';
    }
    this.pending.set(key, Date.now() + this.options.debounceMs);
    this.pump();
    return 'queued';
  }

  /** Forgets a waiting key (a run already in flight finishes). */
  forget(key: string): void {
    this.pending.delete(key);
    this.settleIdle();
  }

  stats(): QueueStats {
    return {
      pending: this.pending.size,
      running: this.running.size,
      started: this.started,
      coalesced: this.coalesced,
      dropped: this.dropped,
    };
  }

  /** Resolves once nothing waits and nothing runs. */
  whenIdle(): Promise<void> {
    if (this.pending.size === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops what waits and resolves when the runs in flight have finished. */
  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    this.pending.clear();
    await Promise.all(this.running.values());
    this.settleIdle();
  }

  /** Starts what may start now and sets a timer for the next key that will be due. */
  private pump(): void {
    this.clearTimer();
    if (this.closed) return;
    const now = Date.now();
    let nextDue = Number.POSITIVE_INFINITY;
    for (const [key, due] of this.pending) {
      if (this.running.size >= this.options.concurrency) return; // a finishing run pumps again
      if (this.running.has(key)) continue; // runs once more after the current run
      if (due > now) {
        nextDue = Math.min(nextDue, due);
        continue;
      }
      if (this.options.busy?.()) {
        nextDue = now + BUSY_RETRY_MS;
        break;
      }
      this.pending.delete(key);
      this.start(key);
    }
    if (nextDue !== Number.POSITIVE_INFINITY) {
      this.timer = setTimeout(() => this.pump(), Math.max(0, nextDue - now));
      this.timer.unref();
    }
    this.settleIdle();
  }

  private start(key: string): void {
    this.started++;
    const run = Promise.resolve()
      .then(() => this.options.run(key))
      .catch((error: unknown) => this.options.onError?.(key, error))
      .finally(() => {
        this.running.delete(key);
        this.pump();
      });
    this.running.set(key, run);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private settleIdle(): void {
    if (this.pending.size > 0 || this.running.size > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
