/**
 * Workspaces as operators manage them (create with initial credits, read, rename, suspend and
 * reinstate, each audited), and as a principal sees its own (name and credit balance: the MCP
 * `get_workspace` tool, the console's overview).
 */
import type { AuditTrail } from '../audit/trail.ts';
import { assertOperator, isOperator, type Principal } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { isIdOf } from '../core/ids.ts';
import { type CreditService, ledgerActorOf, MAX_CREDIT_BALANCE } from '../credits/service.ts';
import type { Store } from '../store/index.ts';
import type { Workspace } from '../store/workspaces.ts';

export interface WorkspaceView {
  id: string;
  name: string;
  creditBalance: number;
  suspended: boolean;
}

const view = (w: Workspace): WorkspaceView => ({
  id: w.id,
  name: w.name,
  creditBalance: w.creditBalance,
  suspended: w.suspended,
});

const notFound = () => new AppError('NOT_FOUND', 'The workspace was not found.');

export class WorkspaceService {
  constructor(
    private readonly store: Store,
    private readonly credits: CreditService,
    private readonly audit: AuditTrail,
  ) {}

  /** A new workspace with its initial credits (operators only); the grant is on the ledger by who. */
  async create(principal: Principal, input: { name: string; credits?: number }): Promise<WorkspaceView> {
    assertOperator(principal);
    const credits = input.credits ?? 0;
    this.credits.checkInitialGrant(credits);
    const workspace = await this.store.workspaces.create({
      name: input.name,
      credits,
      actor: ledgerActorOf(principal),
      ceiling: MAX_CREDIT_BALANCE,
    });
    await this.audit.record(principal, 'workspace.created', {
      workspaceId: workspace.id,
      target: workspace.id,
      details: { name: workspace.name, credits },
    });
    return view(workspace);
  }

  /** A workspace the principal may see: an operator any, anyone else their own. */
  async get(principal: Principal, id: string): Promise<WorkspaceView> {
    if (!isOperator(principal) && principal.workspaceId !== id) throw notFound();
    const workspace = isIdOf('workspace', id) ? await this.store.workspaces.get(id) : null;
    if (!workspace) throw notFound();
    return view(workspace);
  }

  /** The principal's own workspace (the MCP `get_workspace` tool, the console's overview). */
  mine(principal: Principal): Promise<WorkspaceView> {
    return this.get(principal, principal.workspaceId);
  }

  async list(principal: Principal): Promise<WorkspaceView[]> {
    assertOperator(principal);
    return (await this.store.workspaces.list()).map(view);
  }

  /** The workspaces a person may open in the console: an operator every one, a member theirs. */
  async ofPerson(principal: Principal): Promise<WorkspaceView[]> {
    if (isOperator(principal)) return this.list(principal);
    const { actor } = principal;
    if (actor.type !== 'person') return [];
    const mine = await this.store.users.workspacesOf(actor.userId);
    const found = await Promise.all(mine.map((workspace) => this.store.workspaces.get(workspace.id)));
    return found.flatMap((workspace) => (workspace ? [view(workspace)] : []));
  }

  /** Whether any workspace exists (the first start's bootstrap); asks nothing of a principal. */
  async count(): Promise<number> {
    return this.store.workspaces.count();
  }

  /** Renames, suspends or reinstates (operators only); each change is audited. */
  async update(
    principal: Principal,
    id: string,
    patch: { name?: string; suspended?: boolean },
  ): Promise<WorkspaceView> {
    assertOperator(principal);
    const before = await this.get(principal, id);
    const updated = await this.store.workspaces.update(id, patch);
    if (!updated) throw notFound();
    if (patch.name !== undefined && patch.name !== before.name)
      await this.audit.record(principal, 'workspace.renamed', {
        workspaceId: id,
        target: id,
        details: { from: before.name, to: updated.name },
      });
    if (patch.suspended !== undefined && patch.suspended !== before.suspended)
      await this.audit.record(principal, patch.suspended ? 'workspace.suspended' : 'workspace.reinstated', {
        workspaceId: id,
        target: id,
      });
    return view(updated);
  }
}
