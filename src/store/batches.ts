/**
 * Batches of background renders: the batch, its rows (each a render, or failed on its own), the
 * rows' state read through their renders, and the one transition a batch makes when no row is
 * pending any more (running → completed), or when it is cancelled. Each transition is a
 * conditional update, so exactly one caller makes it (and writes its event) however many try.
 *
 * Admission is one atomic step (`createFunded`): in one transaction that holds the workspace's row,
 * the balance less the credits every other batch of the workspace still holds must pay the price;
 * the batch is created with a hold of that price. Each row then charges its own render (the render
 * route's transaction) and the hold shrinks by what it charged, after the charge, so the credits a
 * batch was admitted with are never counted free while it is being accepted. The hold is released
 * when acceptance ends, and no longer counts after its `until` (an instance that died meanwhile).
 */
import type { Kysely, Transaction } from 'kysely';
import { newId } from '../core/ids.ts';
import type { Database } from './schema.ts';

export type BatchStatus = 'running' | 'completed' | 'cancelled';

export interface BatchRecord {
  id: string;
  workspaceId: string;
  templateId: string;
  format: string;
  status: BatchStatus;
  total: number;
  createdAt: string;
  finishedAt: string | null;
}

/** Credits a batch was admitted with and has not charged yet (migration 013). */
interface BatchHoldsTable {
  batch_id: string;
  workspace_id: string;
  credits: number;
  until: string;
}

type WithHolds = Database & { batch_holds: BatchHoldsTable };

export type FundedBatch =
  | { kind: 'created'; batch: BatchRecord }
  /** The balance, and what other batches of the workspace hold of it, cannot pay the price. */
  | { kind: 'unfunded'; balance: number; held: number }
  | { kind: 'missing' };

export interface BatchRowState {
  row: number;
  renderId: string | null;
  /** The row's own failure, or its render's state. */
  status: 'pending' | 'done' | 'failed';
  result: unknown;
  error: unknown;
}

export class BatchRepository {
  private readonly withHolds: Kysely<WithHolds>;

  constructor(private readonly db: Kysely<Database>) {
    this.withHolds = db.withTables<{ batch_holds: BatchHoldsTable }>();
  }

  /** A batch without a price check (see createFunded for the one batches are admitted by). */
  async create(input: {
    workspaceId: string;
    templateId: string;
    format: string;
    total: number;
  }): Promise<BatchRecord> {
    const row = this.newRow(input);
    await this.db.insertInto('batches').values(row).execute();
    return this.toRecord(row);
  }

  /**
   * Admits a batch if the workspace can pay `price` beyond what its other batches hold, and holds
   * `price` for it until `holdUntil`: the check and the hold in one transaction that first locks the
   * workspace's row (a no-op update: PostgreSQL makes concurrent admissions of the workspace wait
   * for it, and re-reads the row after; SQLite runs one transaction at a time). So of two batches
   * whose sum the balance cannot pay, at most one is admitted.
   */
  async createFunded(input: {
    workspaceId: string;
    templateId: string;
    format: string;
    total: number;
    price: number;
    holdUntil: Date;
    now?: Date;
  }): Promise<FundedBatch> {
    const now = (input.now ?? new Date()).toISOString();
    return this.withHolds.transaction().execute(async (trx) => {
      const locked = await trx
        .updateTable('workspaces')
        .set((eb) => ({ credit_balance: eb.ref('credit_balance') }))
        .where('id', '=', input.workspaceId)
        .returning('credit_balance')
        .executeTakeFirst();
      if (!locked) return { kind: 'missing' } as const;
      const balance = Number(locked.credit_balance);
      const holds = await trx
        .selectFrom('batch_holds')
        .select((eb) => eb.fn.sum<number | string | null>('credits').as('held'))
        .where('workspace_id', '=', input.workspaceId)
        .where('until', '>', now)
        .executeTakeFirst();
      const held = Math.max(0, Number(holds?.held ?? 0));
      if (balance - held < input.price) return { kind: 'unfunded', balance, held } as const;
      const row = this.newRow(input);
      await trx.insertInto('batches').values(row).execute();
      if (input.price > 0)
        await trx
          .insertInto('batch_holds')
          .values({
            batch_id: row.id,
            workspace_id: input.workspaceId,
            credits: input.price,
            until: input.holdUntil.toISOString(),
          })
          .execute();
      return { kind: 'created', batch: this.toRecord(row) } as const;
    });
  }

  /** Shrinks a batch's hold by credits a row has just charged (never below zero). */
  async spendHold(batchId: string, credits: number): Promise<void> {
    if (credits <= 0) return;
    await this.withHolds
      .updateTable('batch_holds')
      .set((eb) => ({
        credits: eb
          .case()
          .when('credits', '>', credits)
          .then(eb('credits', '-', credits))
          .else(0)
          .end(),
      }))
      .where('batch_id', '=', batchId)
      .execute();
  }

  /** Releases a batch's hold (its acceptance ended). */
  async releaseHold(batchId: string): Promise<void> {
    await this.withHolds.deleteFrom('batch_holds').where('batch_id', '=', batchId).execute();
  }

  /** Deletes holds past their `until` (they no longer count; the sweep tidies them away). */
  async dropExpiredHolds(now: Date): Promise<number> {
    const result = await this.withHolds
      .deleteFrom('batch_holds')
      .where('until', '<=', now.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private newRow(input: { workspaceId: string; templateId: string; format: string; total: number }) {
    return {
      id: newId('batch'),
      workspace_id: input.workspaceId,
      template_id: input.templateId,
      format: input.format,
      status: 'running',
      total: input.total,
      created_at: new Date().toISOString(),
      finished_at: null,
    };
  }

  async setRow(
    batchId: string,
    row: number,
    outcome: { renderId: string; charged: boolean } | { error: unknown },
  ): Promise<void> {
    await this.db
      .insertInto('batch_rows')
      .values({
        batch_id: batchId,
        row_number: row,
        render_id: 'renderId' in outcome ? outcome.renderId : null,
        error: 'error' in outcome ? JSON.stringify(outcome.error) : null,
        charged: 'charged' in outcome && outcome.charged ? 1 : 0,
      })
      .execute();
  }

  async get(id: string): Promise<BatchRecord | null> {
    const row = await this.db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.toRecord(row) : null;
  }

  /** Every row recorded so far, in row order, with its render's state (`within`: a transaction). */
  async rows(batchId: string, within: Kysely<Database> = this.db): Promise<BatchRowState[]> {
    const rows = await within
      .selectFrom('batch_rows')
      .leftJoin('renders', 'renders.id', 'batch_rows.render_id')
      .select([
        'batch_rows.row_number',
        'batch_rows.render_id',
        'batch_rows.error as row_error',
        'renders.status',
        'renders.result',
        'renders.error',
      ])
      .where('batch_rows.batch_id', '=', batchId)
      .orderBy('batch_rows.row_number')
      .execute();
    return rows.map((r) => ({
      row: Number(r.row_number),
      renderId: r.render_id,
      status: r.row_error ? 'failed' : ((r.status ?? 'pending') as BatchRowState['status']),
      result: r.result ? JSON.parse(r.result) : null,
      error: r.row_error ? JSON.parse(r.row_error) : r.error ? JSON.parse(r.error) : null,
    }));
  }

  /** The batches a render belongs to (a row identical to another shares its render). */
  async ofRender(renderId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('batch_rows')
      .select('batch_id')
      .distinct()
      .where('render_id', '=', renderId)
      .execute();
    return rows.map((r) => r.batch_id);
  }

  /** Running batches (the completion sweep's candidates), oldest first. */
  async running(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('batches')
      .select('id')
      .where('status', '=', 'running')
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Moves a running batch whose rows are all recorded and none pending to `completed`, running
   * `within` (its webhook event) in the same transaction; false when it is not (yet) complete.
   */
  async completeIfDone(
    batchId: string,
    within: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const batch = await trx
        .selectFrom('batches')
        .select(['total', 'status'])
        .where('id', '=', batchId)
        .executeTakeFirst();
      if (batch?.status !== 'running') return false;
      const recorded = await trx
        .selectFrom('batch_rows')
        .leftJoin('renders', 'renders.id', 'batch_rows.render_id')
        .select((eb) => [
          eb.fn.countAll<number>().as('rows'),
          eb.fn.count<number>('renders.id').filterWhere('renders.status', '=', 'pending').as('pending'),
        ])
        .where('batch_rows.batch_id', '=', batchId)
        .executeTakeFirst();
      if (Number(recorded?.rows ?? 0) < Number(batch.total) || Number(recorded?.pending ?? 0) > 0)
        return false;
      const moved = await trx
        .updateTable('batches')
        .set({ status: 'completed', finished_at: new Date().toISOString() })
        .where('id', '=', batchId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      await within(trx);
      return true;
    });
  }

  /** Marks a running batch cancelled (`within`: its event, same transaction); false when it was not running. */
  async cancel(batchId: string, within: (trx: Transaction<Database>) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('batches')
        .set({ status: 'cancelled', finished_at: new Date().toISOString() })
        .where('id', '=', batchId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      await within(trx);
      return true;
    });
  }

  /** The still pending renders this batch charged (a cancel refunds them). */
  async ownPendingRenders(batchId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('batch_rows')
      .innerJoin('renders', 'renders.id', 'batch_rows.render_id')
      .select('renders.id')
      .where('batch_rows.batch_id', '=', batchId)
      .where('batch_rows.charged', '=', 1)
      .where('renders.status', '=', 'pending')
      .execute();
    return rows.map((r) => r.id);
  }

  private toRecord(row: Database['batches']): BatchRecord {
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      templateId: row.template_id,
      format: row.format,
      status: row.status as BatchStatus,
      total: Number(row.total),
      createdAt: row.created_at,
      finishedAt: row.finished_at,
    };
  }
}
