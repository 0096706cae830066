/**
 * Turns an API key into a principal: the credential check. The rest of the contract's order
 * (subscription → named workspace → scope) is the kernel's, the same for every credential
 * (http/auth-hook.ts). Every failure is a 403 so probing cannot tell the cases apart early.
 */
import { AppError } from '../core/errors.ts';
import { isApiKeyShape } from '../core/ids.ts';
import { LAST_USED_RESOLUTION_MS } from '../store/api-keys.ts';
import type { Store } from '../store/index.ts';
import type { Authenticated, Authenticator } from './authenticator.ts';
import { isScope } from './scopes.ts';

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
  return ({ headers, address }) => authenticateApiKey(store, headers, address);
}

/**
 * The key's principal and its workspace's suspension (read in the same query), or 403
 * INVALID_API_KEY: a suspended workspace is the caller's to refuse.
 */
export async function authenticateApiKey(
  store: Store,
  headers: CredentialHeaders,
  address: string | null,
): Promise<Authenticated> {
  const key = extractApiKey(headers);
  if (!key || !isApiKeyShape(key)) throw new AppError('INVALID_API_KEY');
  const found = await store.apiKeys.findActiveWithWorkspace(key);
  if (!found) throw new AppError('INVALID_API_KEY');
  const { key: record, suspended } = found;
  // "Last used", for people managing keys: off the request's path, at most once a minute per key.
  if (!record.lastUsedAt || Date.parse(record.lastUsedAt) < Date.now() - LAST_USED_RESOLUTION_MS)
    store.apiKeys.touch(record.id).catch(() => undefined);
  return {
    principal: {
      workspaceId: record.workspaceId,
      scopes: new Set(record.scopes.filter(isScope)),
      actor: { type: 'api_key', id: record.id, prefix: record.prefix },
      address,
    },
    workspaceSuspended: suspended,
  };
}
