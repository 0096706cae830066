/**
 * API keys as operators and the console's people manage them: created for a workspace with a set
 * of scopes (the clear key is shown once), listed by masked prefix, revoked; each change audited.
 * The principal decides which workspace's keys it reaches. The store keeps hashes; scopes are ours.
 */
import { AppError } from '../core/errors.ts';
import { isIdOf } from '../core/ids.ts';
import type { Store } from '../store/index.ts';
import { assertManages, isOperator, manages, type Principal } from './principal.ts';
import { isScope, type Scope } from './scopes.ts';

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
  /** When a request last used it, to the minute; null if never. */
  lastUsedAt: string | null;
}

function view(record: {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}): ApiKeyView {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    scopes: record.scopes.filter(isScope),
    createdAt: record.createdAt,
    revokedAt: record.revokedAt,
    lastUsedAt: record.lastUsedAt,
  };
}

/**
 * Where key changes are recorded: the audit trail (src/audit's AuditTrail), named here by the one
 * method used so that auth, which the audit trail itself builds on, imports nothing of it.
 */
export interface ApiKeyAudit {
  record(
    principal: Principal,
    action: 'api_key.created' | 'api_key.revoked',
    subject: { workspaceId: string; target: string; details?: Record<string, unknown> },
  ): Promise<unknown>;
}

const notFound = () => new AppError('NOT_FOUND', 'The API key was not found.');
const noWorkspace = () => new AppError('NOT_FOUND', 'The workspace was not found.');

export class ApiKeyService {
  constructor(
    private readonly store: Store,
    private readonly audit: ApiKeyAudit,
  ) {}

  /** A new key (shown once) for a workspace the principal manages. */
  async create(
    principal: Principal,
    workspaceId: string,
    input: { name: string; scopes: readonly Scope[] },
  ): Promise<ApiKeyView & { key: string }> {
    await this.workspace(principal, workspaceId);
    const created = await this.store.apiKeys.create({ workspaceId, name: input.name, scopes: input.scopes });
    await this.audit.record(principal, 'api_key.created', {
      workspaceId,
      target: created.id,
      details: { name: input.name, scopes: [...input.scopes], prefix: created.prefix },
    });
    return { ...view(created), key: created.key };
  }

  async list(principal: Principal, workspaceId: string): Promise<ApiKeyView[]> {
    await this.workspace(principal, workspaceId);
    return (await this.store.apiKeys.list(workspaceId)).map(view);
  }

  /** Revokes a key of a workspace the principal manages (another's is not found). */
  async revoke(principal: Principal, id: string): Promise<void> {
    const within = isOperator(principal) ? null : principal.workspaceId;
    if (within !== null && !manages(principal, within)) throw notFound();
    const revokedIn = isIdOf('apiKey', id) ? await this.store.apiKeys.revoke(id, within) : null;
    if (revokedIn === null) throw notFound();
    await this.audit.record(principal, 'api_key.revoked', { workspaceId: revokedIn, target: id });
  }

  private async workspace(principal: Principal, workspaceId: string): Promise<void> {
    assertManages(principal, workspaceId, noWorkspace);
    if (!isIdOf('workspace', workspaceId) || !(await this.store.workspaces.get(workspaceId)))
      throw noWorkspace();
  }
}
