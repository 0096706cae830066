/**
 * Workspaces and their credit balance. Every balance change writes a ledger entry in the same
 * transaction, so the balance can always be recomputed from the ledger. Credits are 64-bit on both
 * databases and bounded well below 2^53, so every balance and ledger amount is an exact JS number.
 */
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../core/errors.ts';
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

/** The most one operator grant or withdrawal (or a new workspace's initial credits) may move. */
export const MAX_CREDIT_CHANGE = 1_000_000_000_000;

/**
 * The most a balance may reach through grants: 10^15, a round figure 9 times below
 * Number.MAX_SAFE_INTEGER. Refunds of earlier charges are never refused, so a balance can pass it
 * by what is in flight; the headroom keeps even that, and any balance plus one grant, exact.
 */
export const MAX_CREDIT_BALANCE = 1_000_000_000_000_000;

export function toWorkspace(row: WorkspacesTable): Workspace {
  return {
    id: row.id,
    name: row.name,
    creditBalance: Number(row.credit_balance),
    suspended: Boolean(row.suspended),
    createdAt: row.created_at,
  };
}

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

  async create(input: { name: string; credits: number; actor: string; id?: string }): Promise<Workspace> {
    assertCreditChange('credits', input.credits);
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
          ceiling: MAX_CREDIT_BALANCE,
        });
      }
    });
    return this.getOrThrow(id);
  }

  async get(id: string): Promise<Workspace | null> {
    const row = await this.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toWorkspace(row) : null;
  }

  async getOrThrow(id: string): Promise<Workspace> {
    const workspace = await this.get(id);
    if (!workspace) throw new AppError('NOT_FOUND', 'The workspace was not found.');
    return workspace;
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

  async update(id: string, patch: { name?: string; suspended?: boolean }): Promise<Workspace> {
    const set: Partial<WorkspacesTable> = { updated_at: new Date().toISOString() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.suspended !== undefined) set.suspended = patch.suspended ? 1 : 0;
    const result = await this.db.updateTable('workspaces').set(set).where('id', '=', id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new AppError('NOT_FOUND', 'The workspace was not found.');
    return this.getOrThrow(id);
  }

  /**
   * Operator grant (positive, never above MAX_CREDIT_BALANCE) or withdrawal (negative, never below
   * zero); a refused change changes nothing.
   */
  async adjustCredits(id: string, amount: number, reason: string, actor: string): Promise<number> {
    assertCreditChange('amount', amount);
    await this.getOrThrow(id);
    const balance = await this.db
      .transaction()
      .execute((trx) =>
        changeCredits(trx, { workspaceId: id, delta: amount, reason, actor, ceiling: MAX_CREDIT_BALANCE }),
      );
    if (balance !== null) return balance;
    const { creditBalance } = await this.getOrThrow(id);
    if (amount > 0) {
      const message = `The grant would take the balance above the maximum of ${MAX_CREDIT_BALANCE} credits.`;
      throw new AppError('VALIDATION_FAILED', message, [{ path: 'amount', message }]);
    }
    throw new AppError('CONFLICT', 'The withdrawal exceeds the credit balance.', { creditBalance });
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

/** The request schemas already bound amounts; this keeps every other caller inside them too. */
function assertCreditChange(path: string, amount: number): void {
  if (Number.isSafeInteger(amount) && Math.abs(amount) <= MAX_CREDIT_CHANGE) return;
  const message = `Must be an integer of at most ${MAX_CREDIT_CHANGE} in absolute value.`;
  throw new AppError('VALIDATION_FAILED', message, [{ path, message }]);
}
