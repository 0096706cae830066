/**
 * Turns an API key into a principal, in the contract's order of checks: credential → subscription
 * → named workspace → scope. Every failure is a 403 so probing cannot tell the cases apart early.
 */
import { AppError } from '../core/errors.ts';
import { isApiKeyShape } from '../core/ids.ts';
import { LAST_USED_RESOLUTION_MS } from '../store/api-keys.ts';
import type { Store } from '../store/index.ts';
import type { Authenticator } from './authenticator.ts';
import type { Principal } from './principal.ts';
import { isScope, type Scope } from './scopes.ts';

export interface CredentialHeaders {
  authorization?: string | undefined;
  'x-api-key'?: string | string[] | undefined;
  'x-workspace-id'?: string | string[] | undefined;
}

/** The key from `Authorization: Bearer`, else `X-Api-Key`; undefined when absent. */
export function extractApiKey(headers: CredentialHeaders): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const header = headers['x-api-key'];
  if (typeof header === 'string') return header.trim();
  // An Authorization header of another scheme (a proxy's Basic, say) is not our credential.
  return undefined;
}

export function apiKeyAuthenticator(store: Store): Authenticator {
  return ({ headers, requiredScope }) => authenticateApiKey(store, headers, requiredScope);
}

export async function authenticateApiKey(
  store: Store,
  headers: CredentialHeaders,
  requiredScope: Scope | null,
): Promise<Principal> {
  const key = extractApiKey(headers);
  if (!key || !isApiKeyShape(key)) throw new AppError('INVALID_API_KEY');
  const found = await store.apiKeys.findActiveWithWorkspace(key);
  if (!found) throw new AppError('INVALID_API_KEY');
  const { key: record, suspended } = found;
  // "Last used", for people managing keys: off the request's path, at most once a minute per key.
  if (!record.lastUsedAt || Date.parse(record.lastUsedAt) < Date.now() - LAST_USED_RESOLUTION_MS)
    store.apiKeys.touch(record.id).catch(() => undefined);
  if (suspended) throw new AppError('SUBSCRIPTION_SUSPENDED');
  const named = headers['x-workspace-id'];
  if (named !== undefined && (typeof named !== 'string' || named !== record.workspaceId)) {
    throw new AppError('WORKSPACE_MISMATCH');
  }
  const scopes = new Set(record.scopes.filter(isScope));
  if (requiredScope && !scopes.has(requiredScope)) {
    throw new AppError('INSUFFICIENT_SCOPE', `This request needs the scope ${requiredScope}.`, {
      requiredScope,
    });
  }
  return { workspaceId: record.workspaceId, scopes, actor: { type: 'api_key', id: record.id } };
}
