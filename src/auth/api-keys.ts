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
}

function view(record: {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}): ApiKeyView {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    scopes: record.scopes.filter(isScope),
    createdAt: record.createdAt,
    revokedAt: record.revokedAt,
  };
}

export class ApiKeyService {
  constructor(private readonly store: Store) {}

  async create(
    workspaceId: string,
    input: { name: string; scopes: readonly Scope[] },
  ): Promise<ApiKeyView & { key: string }> {
    const created = await this.store.apiKeys.create({ workspaceId, name: input.name, scopes: input.scopes });
    return { ...view(created), key: created.key };
  }

  async list(workspaceId: string): Promise<ApiKeyView[]> {
    return (await this.store.apiKeys.list(workspaceId)).map(view);
  }

  async revoke(id: string): Promise<void> {
    const revoked = isIdOf('apiKey', id) && (await this.store.apiKeys.revoke(id));
    if (!revoked) throw new AppError('NOT_FOUND', 'The API key was not found.');
  }
}
