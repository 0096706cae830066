/**
 * Credits, written once for every entry point: operator grants and withdrawals, the ledger, and a
 * render's charge, refund and identical-render lookup. The SQL (one conditional UPDATE per change,
 * a ledger entry in the same transaction) is the store's; the rules and their errors are here.
 */
import type { AuditTrail } from '../audit/trail.ts';
import { actorLabel, assertOperator, isOperator, type Principal } from '../auth/principal.ts';
import { AppError } from '../core/errors.ts';
import type { Store } from '../store/index.ts';
import type { BeginInput, OutputRow, RenderRecord, WithinTransaction } from '../store/renders.ts';
import type { LedgerEntry } from '../store/workspaces.ts';

/** The most one operator grant or withdrawal (or a new workspace's initial credits) may move. */
export const MAX_CREDIT_CHANGE = 1_000_000_000_000;

/**
 * The most a balance may reach through grants: 10^15, a round figure 9 times below
 * Number.MAX_SAFE_INTEGER. Refunds of earlier charges are never refused, so a balance can pass it
 * by what is in flight; the headroom keeps even that, and any balance plus one grant, exact.
 */
export const MAX_CREDIT_BALANCE = 1_000_000_000_000_000;

/** A render's credits are taken: its id, the balance after the charge and when it was recorded. */
export interface RenderCharge {
  renderId: string;
  balanceAfter: number;
  createdAt: string;
}

export type ChargeOutcome =
  | ({ kind: 'charged' } & RenderCharge)
  | { kind: 'identical'; render: RenderRecord };

function assertCreditChange(path: string, amount: number): void {
  if (Number.isSafeInteger(amount) && Math.abs(amount) <= MAX_CREDIT_CHANGE) return;
  const message = `Must be an integer of at most ${MAX_CREDIT_CHANGE} in absolute value.`;
  throw new AppError('VALIDATION_FAILED', message, [{ path, message }]);
}

/**
 * Who moved credits, as the ledger names them: a person by email (and id), the operator token,
 * or the service's own task; renders are named by their principal (auth/principal.ts actorLabel).
 */
export function ledgerActorOf(principal: Principal): string {
  const { actor } = principal;
  if (actor.type === 'person') return `person:${actor.email} (${actor.userId})`;
  return actorLabel(actor);
}

export class CreditService {
  constructor(
    private readonly store: Store,
    private readonly audit: AuditTrail,
  ) {}

  /** Validates an initial grant; the workspace is created with it by the workspace service. */
  checkInitialGrant(credits: number): void {
    assertCreditChange('credits', credits);
  }

  /**
   * An operator grant (positive) or withdrawal (negative), on the ledger and in the audit trail by
   * who did it. Over the balance maximum: 400; beyond the balance: 409; either way nothing changes.
   */
  async adjust(principal: Principal, workspaceId: string, amount: number, reason: string): Promise<number> {
    assertOperator(principal);
    assertCreditChange('amount', amount);
    const outcome = await this.store.workspaces.adjustCredits({
      workspaceId,
      delta: amount,
      reason,
      actor: ledgerActorOf(principal),
      ceiling: MAX_CREDIT_BALANCE,
    });
    switch (outcome.kind) {
      case 'changed':
        await this.audit.record(principal, amount > 0 ? 'credits.granted' : 'credits.withdrawn', {
          workspaceId,
          target: workspaceId,
          details: { amount, reason, balanceAfter: outcome.balance },
        });
        return outcome.balance;
      case 'missing':
        throw new AppError('NOT_FOUND', 'The workspace was not found.');
      case 'over-ceiling': {
        const message = `The grant would take the balance above the maximum of ${MAX_CREDIT_BALANCE} credits.`;
        throw new AppError('VALIDATION_FAILED', message, [{ path: 'amount', message }]);
      }
      case 'insufficient':
        throw new AppError('CONFLICT', 'The withdrawal exceeds the credit balance.', {
          creditBalance: outcome.balance,
        });
    }
  }

  /** A workspace's credit movements (operators, or the workspace's own principal). */
  ledger(principal: Principal, workspaceId: string): Promise<LedgerEntry[]> {
    if (!isOperator(principal) && principal.workspaceId !== workspaceId)
      throw new AppError('NOT_FOUND', 'The workspace was not found.');
    return this.store.workspaces.ledger(workspaceId);
  }

  async balance(workspaceId: string): Promise<number> {
    const workspace = await this.store.workspaces.get(workspaceId);
    if (!workspace) throw new AppError('NOT_FOUND', 'The workspace was not found.');
    return workspace.creditBalance;
  }

  /** A finished, unexpired render of this identity with the balance now (the free replay), or null. */
  findIdentical(workspaceId: string, identityHash: string) {
    return this.store.renders.findDone(workspaceId, identityHash);
  }

  /**
   * Claims the render identity and takes its credits in one transaction, or finds the identical
   * render that holds the claim. A render that cannot be paid is 402 and charges nothing.
   */
  async charge(input: BeginInput): Promise<ChargeOutcome> {
    const outcome = await this.store.renders.begin(input);
    if (outcome.kind === 'unfunded')
      throw new AppError('INSUFFICIENT_CREDITS', undefined, { required: input.fileCount });
    if (outcome.kind === 'existing') return { kind: 'identical', render: outcome.job };
    return {
      kind: 'charged',
      renderId: outcome.renderId,
      balanceAfter: outcome.balanceAfter,
      createdAt: outcome.createdAt,
    };
  }

  /**
   * Records a charged render as done with its files (RenderNoLongerPending if refunded meanwhile);
   * `within` runs in the same transaction (a webhook event that must not be lost or precede it).
   */
  settle(
    renderId: string,
    response: unknown,
    outputs: OutputRow[],
    workspaceId: string,
    within?: WithinTransaction,
  ): Promise<void> {
    return this.store.renders.complete(renderId, response, outputs, workspaceId, within);
  }

  /** Marks a pending render failed and refunds its credits by a ledger entry (`within`: as settle). */
  refund(renderId: string, error: unknown, reason?: string, within?: WithinTransaction): Promise<boolean> {
    return this.store.renders.fail(renderId, error, reason, within);
  }
}
