/**
 * Workspaces and their credit balance. Every balance change writes a ledger entry in the same
 * transaction, so the balance can always be recomputed from the ledger. Credits are 64-bit on both
 * databases; the credits module bounds them well below 2^53, so every value is an exact JS number.
 * Plain data in and out: the rules (limits, errors) live in src/credits.
 */
import type { Kysely, Transaction } from 'kysely';
import { newId } from '../core/ids.ts';
import type { Database, WorkspacesTable } from './schema.ts';

export interface Workspace {
  id: string;
  name: string;
  creditBalance: number;
  suspended: boolean;
  createdAt: string;
}

export interface LedgerEntry {
  id: string;
  workspaceId: string;
  delta: number;
  balanceAfter: number;
  reason: string;
  actor: string;
  renderId: string | null;
  createdAt: string;
}

type Db = Kysely<Database> | Transaction<Database>;

function toWorkspace(row: WorkspacesTable): Workspace {
  return {
    id: row.id,
    name: row.name,
    creditBalance: Number(row.credit_balance),
    suspended: Boolean(row.suspended),
    createdAt: row.created_at,
  };
}

export type AdjustOutcome =
  | { kind: 'changed'; balance: number }
  | { kind: 'over-ceiling' | 'insufficient'; balance: number }
  | { kind: 'missing' };

export interface CreditChange {
  workspaceId: string;
  delta: number;
  reason: string;
  actor: string;
  renderId?: string | null;
  /** A credit only happens when the new balance stays at or below this (grants pass the maximum). */
  ceiling?: number;
}

/**
 * Applies a credit change inside `trx`. A debit only happens when the balance covers it, a credit
 * with a `ceiling` only when the balance stays under it (one conditional UPDATE, atomic on both
 * databases); returns the new balance, or null when the condition (or the workspace) is missing.
 */
export async function changeCredits(trx: Db, change: CreditChange): Promise<number | null> {
  let update = trx
    .updateTable('workspaces')
    .set((eb) => ({
      credit_balance: eb('credit_balance', '+', change.delta),
      updated_at: new Date().toISOString(),
    }))
    .where('id', '=', change.workspaceId)
    .where('credit_balance', '>=', change.delta < 0 ? -change.delta : 0);
  // ceiling - delta is computed here, exactly: both are far below 2^53.
  if (change.ceiling !== undefined && change.delta > 0)
    update = update.where('credit_balance', '<=', change.ceiling - change.delta);
  const updated = await update.returning('credit_balance').executeTakeFirst();
  if (!updated) return null;
  const balanceAfter = Number(updated.credit_balance);
  await trx
    .insertInto('credit_ledger')
    .values({
      id: newId('ledger'),
      workspace_id: change.workspaceId,
      delta: change.delta,
      balance_after: balanceAfter,
      reason: change.reason,
      actor: change.actor,
      render_id: change.renderId ?? null,
      created_at: new Date().toISOString(),
    })
    .execute();
  return balanceAfter;
}

export class WorkspaceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new workspace with its initial credits (never above `ceiling`, if given), in one transaction. */
  async create(input: {
    name: string;
    credits: number;
    actor: string;
    ceiling?: number;
    id?: string;
  }): Promise<Workspace> {
    const now = new Date().toISOString();
    const id = input.id ?? newId('workspace');
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('workspaces')
        .values({ id, name: input.name, credit_balance: 0, suspended: 0, created_at: now, updated_at: now })
        .execute();
      if (input.credits > 0) {
        await changeCredits(trx, {
          workspaceId: id,
          delta: input.credits,
          reason: 'initial grant',
          actor: input.actor,
          ...(input.ceiling !== undefined ? { ceiling: input.ceiling } : {}),
        });
      }
    });
    return { id, name: input.name, creditBalance: input.credits, suspended: false, createdAt: now };
  }

  async get(id: string): Promise<Workspace | null> {
    const row = await this.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toWorkspace(row) : null;
  }

  async list(): Promise<Workspace[]> {
    const rows = await this.db
      .selectFrom('workspaces')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toWorkspace);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The updated workspace, or null when there is none. */
  async update(id: string, patch: { name?: string; suspended?: boolean }): Promise<Workspace | null> {
    const set: Partial<WorkspacesTable> = { updated_at: new Date().toISOString() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.suspended !== undefined) set.suspended = patch.suspended ? 1 : 0;
    await this.db.updateTable('workspaces').set(set).where('id', '=', id).executeTakeFirst();
    return this.get(id);
  }

  /**
   * A grant (positive, never taking the balance above `ceiling`) or withdrawal (negative, never
   * below zero) with its ledger entry; a refused change changes nothing.
   */
  async adjustCredits(change: CreditChange & { ceiling: number }): Promise<AdjustOutcome> {
    const balance = await this.db.transaction().execute((trx) => changeCredits(trx, change));
    if (balance !== null) return { kind: 'changed', balance };
    const workspace = await this.get(change.workspaceId);
    if (!workspace) return { kind: 'missing' };
    return { kind: change.delta > 0 ? 'over-ceiling' : 'insufficient', balance: workspace.creditBalance };
  }

  async ledger(workspaceId: string): Promise<LedgerEntry[]> {
    const rows = await this.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      workspaceId: r.workspace_id,
      delta: Number(r.delta),
      balanceAfter: Number(r.balance_after),
      reason: r.reason,
      actor: r.actor,
      renderId: r.render_id,
      createdAt: r.created_at,
    }));
  }
}
