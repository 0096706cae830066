/**
 * Group commit: writes that must be on disk before their caller is answered share one synced
 * commit when they arrive together. Each caller hands over a function that runs inside a
 * transaction; everything queued so far runs, one after another, in ONE transaction with the
 * normal (synced) commit, and each caller's promise settles only after that commit has returned.
 * So a caller is never told about a write the disk does not hold yet, and N concurrent writers pay
 * one disk sync instead of N.
 *
 * No timer: a lone write starts at the next turn of the event loop (setImmediate), with whatever
 * else arrived in the same turn; writes that arrive while a batch runs form the next batch, which
 * starts as soon as that one has committed. On SQLite the commit and its disk sync block the event
 * loop, so nothing can arrive meanwhile: there, the writes queued in the same turn share a commit.
 * On PostgreSQL a batch is one transaction on one pooled connection, and writes keep arriving while
 * its commit travels to the server.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export type TransactionWork<T> = (trx: Transaction<Database>) => Promise<T>;

interface Queued {
  work: TransactionWork<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** One batch's transaction holds its locks until it commits: bound how much it takes at once. */
const DEFAULT_MAX_BATCH = 64;

export class GroupCommit {
  private queue: Queued[] = [];
  private scheduled = false;
  private running = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBatch = DEFAULT_MAX_BATCH,
  ) {}

  /**
   * Runs `work` in a synced transaction shared with whatever else is queued with it; resolves with
   * its result once that transaction has committed, or rejects with its own error (the others in
   * the batch are not failed by it).
   */
  run<T>(work: TransactionWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.wake();
    });
  }

  private wake(): void {
    // A running drain picks the new work up when its commit returns.
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, this.maxBatch));
    } finally {
      this.running = false;
    }
  }

  private async commit(batch: Queued[]): Promise<void> {
    let results: unknown[];
    try {
      results = await this.db.transaction().execute(async (trx) => {
        const values: unknown[] = [];
        // One at a time: they share the transaction's one connection, and each sees the writes of
        // those before it, as if they had committed one after another.
        for (const item of batch) values.push(await item.work(trx));
        return values;
      });
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // Everything was rolled back. Whose error it was is not always knowable (a failed commit,
      // an aborted PostgreSQL transaction), so each runs again alone and gets its own outcome.
      for (const item of batch) await this.alone(item);
      return;
    }
    for (const [i, item] of batch.entries()) item.resolve(results[i]);
  }

  private async alone(item: Queued): Promise<void> {
    try {
      item.resolve(await this.db.transaction().execute(item.work));
    } catch (error) {
      item.reject(error);
    }
  }
}
