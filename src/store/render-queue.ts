/**
 * The queue of background renders, kept in the renders table itself (embedded database or
 * PostgreSQL): a worker claims the oldest pending background render whose lease is free, under a
 * lease of its own (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so instances never take the same row; on
 * SQLite one process owns the data). A worker that dies leaves its lease to expire and the render is
 * taken again: at least once. Completing or failing a render checks it is still pending, so a
 * render run twice is recorded, and charged, once.
 */
import { type Kysely, sql } from 'kysely';
import type { DialectName } from './db.ts';
import type { Database } from './schema.ts';

export interface QueuedRender {
  id: string;
  workspaceId: string;
  /** The job as accepted (JSON). */
  job: string;
  createdAt: string;
  /** Charged with the render: the balance right after it, for the result's `credits`. */
  charged: number;
}

export class RenderQueueRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** Takes the oldest background render free to run, for `leaseMs`; null when none waits. */
  async claimNext(instanceId: string, leaseMs: number, now = new Date()): Promise<QueuedRender | null> {
    const at = now.toISOString();
    const until = new Date(now.getTime() + leaseMs).toISOString();
    const lock = this.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
    const result = await sql<{
      id: string;
      workspace_id: string;
      job: string;
      created_at: string;
      charged: number;
    }>`
      UPDATE renders SET instance_id = ${instanceId}, locked_until = ${until}
      WHERE id = (
        SELECT id FROM renders
        WHERE mode = 'async' AND status = 'pending' AND (locked_until IS NULL OR locked_until < ${at})
        ORDER BY created_at LIMIT 1 ${lock}
      )
      AND status = 'pending'
      RETURNING id, workspace_id, job, created_at, charged`.execute(this.db);
    const row = result.rows[0];
    if (!row) return null;
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      job: row.job,
      createdAt: row.created_at,
      charged: Number(row.charged),
    };
  }

  /**
   * Takes one background render by its id (the BullMQ mode, where the queue in Redis says which
   * render a worker runs and its job lock, not this lease, keeps others off it); null once it is
   * no longer pending, or when it is no background render of this deployment.
   */
  async claim(
    renderId: string,
    instanceId: string,
    leaseMs: number,
    now = new Date(),
  ): Promise<QueuedRender | null> {
    const row = await this.db
      .updateTable('renders')
      .set({ instance_id: instanceId, locked_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where('id', '=', renderId)
      .where('mode', '=', 'async')
      .where('status', '=', 'pending')
      .returning(['id', 'workspace_id', 'job', 'created_at', 'charged'])
      .executeTakeFirst();
    if (!row?.job) return null;
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      job: row.job,
      createdAt: row.created_at,
      charged: Number(row.charged),
    };
  }

  /**
   * Background renders pending since before `olderThan` that nobody holds (no lease, or an expired
   * one): in the BullMQ mode, those whose queue entry was lost (a stop between the charge and the
   * enqueue, an unreachable Redis, a job given up), to be queued again.
   */
  async stranded(olderThan: Date, limit: number, now = new Date()): Promise<string[]> {
    const rows = await this.db
      .selectFrom('renders')
      .select('id')
      .where('mode', '=', 'async')
      .where('status', '=', 'pending')
      .where('created_at', '<', olderThan.toISOString())
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now.toISOString())]))
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** SQLite at start: this is the only process, so every lease left is a dead one's. */
  async releaseLeases(): Promise<number> {
    const result = await this.db
      .updateTable('renders')
      .set({ locked_until: null })
      .where('mode', '=', 'async')
      .where('status', '=', 'pending')
      .where('locked_until', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Background renders still to run (the queue depth every instance shares). */
  async depth(): Promise<number> {
    const row = await this.db
      .selectFrom('renders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mode', '=', 'async')
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The balance right after a render's charge (its ledger entry), for its result's `credits`. */
  async balanceAfterCharge(renderId: string): Promise<number> {
    const row = await this.db
      .selectFrom('credit_ledger')
      .select('balance_after')
      .where('render_id', '=', renderId)
      .where('delta', '<', 0)
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    return Number(row?.balance_after ?? 0);
  }
}
