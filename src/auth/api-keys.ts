/**
 * API keys as the operator manages them: created for a workspace with a set of scopes (the clear
 * key is shown once), listed by masked prefix, revoked. The store keeps hashes; scopes are ours.
 */
import { AppError } from '../core/errors.ts';
import { isIdOf } from '../core/ids.ts';
import type { Store } from '../store/index.ts';
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

/** The audit log's name for the holder of PLATEN_ADMIN_TOKEN. */
export const OPERATOR_TOKEN = 'operator-token';

export class ApiKeyService {
  constructor(private readonly store: Store) {}

  /** A new key (shown once); `actor` (who asked) goes to the audit log. */
  async create(
    workspaceId: string,
    input: { name: string; scopes: readonly Scope[] },
    actor = OPERATOR_TOKEN,
  ): Promise<ApiKeyView & { key: string }> {
    const created = await this.store.apiKeys.create({ workspaceId, name: input.name, scopes: input.scopes });
    await this.store.console.audit({
      actor,
      action: 'api_key.created',
      workspaceId,
      target: created.id,
      details: { name: input.name, scopes: [...input.scopes] },
    });
    return { ...view(created), key: created.key };
  }

  async list(workspaceId: string): Promise<ApiKeyView[]> {
    return (await this.store.apiKeys.list(workspaceId)).map(view);
  }

  /** Revokes a key; `within` confines the caller to one workspace (another's key is not found). */
  async revoke(id: string, actor = OPERATOR_TOKEN, within: string | null = null): Promise<void> {
    const revokedIn = isIdOf('apiKey', id) ? await this.store.apiKeys.revoke(id, within) : null;
    if (revokedIn === null) throw new AppError('NOT_FOUND', 'The API key was not found.');
    await this.store.console.audit({
      actor,
      action: 'api_key.revoked',
      workspaceId: revokedIn,
      target: id,
      details: null,
    });
  }
}
