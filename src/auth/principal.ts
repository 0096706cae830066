/**
 * Principals: what an authenticated request may act as. Handlers read `request.principal` and never
 * look at credentials; a route without a principal fails closed.
 */
import { AppError } from '../core/errors.ts';
import type { Scope } from './scopes.ts';

export type Actor =
  | { type: 'api_key'; id: string }
  /** `isolated`: the embed is multi-tenant, so the session sees its user's templates and shared ones. */
  | { type: 'embed_session'; embedId: string; userId: string | null; isolated: boolean }
  | { type: 'oauth'; clientId: string; userId: string }
  /** A signed render URL, by the URL-signing secret that verified it. */
  | { type: 'signed_url'; secretId: string }
  /** A person signed in to the console (the OAuth pages' session); operators manage every workspace. */
  | { type: 'person'; userId: string; operator: boolean };

export interface Principal {
  workspaceId: string;
  scopes: ReadonlySet<Scope>;
  actor: Actor;
}

export function actorLabel(actor: Actor): string {
  switch (actor.type) {
    case 'api_key':
      return `api_key:${actor.id}`;
    case 'embed_session':
      return `embed:${actor.embedId}:${actor.userId ?? '-'}`;
    case 'oauth':
      return `oauth:${actor.clientId}:${actor.userId}`;
    case 'signed_url':
      return `signed_url:${actor.secretId}`;
    case 'person':
      return `person:${actor.userId}`;
  }
}

export function requirePrincipal(principal: Principal | undefined): Principal {
  if (!principal) throw new AppError('INVALID_API_KEY');
  return principal;
}

/** A resource of another workspace is a mismatch (for an embed session: not found), never served. */
export function assertSameWorkspace(principal: Principal, resourceWorkspaceId: string): void {
  if (principal.workspaceId === resourceWorkspaceId) return;
  // An end-user's session must not learn that another workspace's id exists (docs/api.md, Embeds).
  // Nor a person in the console who changes an id in a URL (they may belong to several workspaces).
  if (principal.actor.type === 'embed_session' || principal.actor.type === 'person')
    throw new AppError('NOT_FOUND');
  throw new AppError('WORKSPACE_MISMATCH');
}

/** Who did it, for the audit log: the person (console) or the operator token (operator API, CLI). */
export function auditActorOf(principal: Principal | undefined): string {
  return principal ? actorLabel(principal.actor) : 'operator-token';
}

/**
 * The one workspace a caller may manage rows of, or null for all: the operator token, and an
 * operator's session on the operator API (which names no workspace). A member's principal
 * without a workspace is confined to '' and so reaches nothing: fail closed.
 */
export function confinedTo(principal: Principal | undefined): string | null {
  if (!principal) return null;
  const { actor } = principal;
  if (actor.type === 'person' && actor.operator && principal.workspaceId === '') return null;
  return principal.workspaceId;
}
