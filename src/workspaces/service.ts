/**
 * Workspaces as the operator manages them (create with initial credits, read, rename, suspend),
 * and as a principal sees its own (name and credit balance: the MCP `get_workspace` tool).
 */
import type { Principal } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { isIdOf } from '../core/ids.ts';
import { type CreditService, MAX_CREDIT_BALANCE } from '../credits/service.ts';
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

export class WorkspaceService {
  constructor(
    private readonly store: Store,
    private readonly credits: CreditService,
  ) {}

  async create(input: { name: string; credits?: number }, actor: string): Promise<WorkspaceView> {
    const credits = input.credits ?? 0;
    this.credits.checkInitialGrant(credits);
    const workspace = await this.store.workspaces.create({
      name: input.name,
      credits,
      actor,
      ceiling: MAX_CREDIT_BALANCE,
    });
    return view(workspace);
  }

  async get(id: string): Promise<WorkspaceView> {
    const workspace = isIdOf('workspace', id) ? await this.store.workspaces.get(id) : null;
    if (!workspace) throw new AppError('NOT_FOUND', 'The workspace was not found.');
    return view(workspace);
  }

  /** The principal's own workspace. */
  mine(principal: Principal): Promise<WorkspaceView> {
    return this.get(principal.workspaceId);
  }

  async list(): Promise<WorkspaceView[]> {
    return (await this.store.workspaces.list()).map(view);
  }

  async count(): Promise<number> {
    return this.store.workspaces.count();
  }

  async update(id: string, patch: { name?: string; suspended?: boolean }): Promise<WorkspaceView> {
    await this.get(id);
    const updated = await this.store.workspaces.update(id, patch);
    if (!updated) throw new AppError('NOT_FOUND', 'The workspace was not found.');
    return view(updated);
  }
}
