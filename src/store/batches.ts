/**
 * Batches of background renders: the batch, its rows (each a render, or failed on its own), the
 * rows' state read through their renders, and the one transition a batch makes when no row is
 * pending any more (running → completed), or when it is cancelled. Each transition is a
 * conditional update, so exactly one caller makes it (and writes its event) however many try.
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

export interface BatchRowState {
  row: number;
  renderId: string | null;
  /** The row's own failure, or its render's state. */
  status: 'pending' | 'done' | 'failed';
  result: unknown;
  error: unknown;
}

export class BatchRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: {
    workspaceId: string;
    templateId: string;
    format: string;
    total: number;
  }): Promise<BatchRecord> {
    const row = {
      id: newId('batch'),
      workspace_id: input.workspaceId,
      template_id: input.templateId,
      format: input.format,
      status: 'running',
      total: input.total,
      created_at: new Date().toISOString(),
      finished_at: null,
    };
    await this.db.insertInto('batches').values(row).execute();
    return this.toRecord(row);
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
