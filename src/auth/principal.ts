/**
 * Principals: what an authenticated request may act as, and from where. Handlers read
 * `request.principal` and never look at credentials; a route without a principal fails closed.
 * Every service takes the principal first and derives from it what the caller may reach
 * (`manages`, `assertSameWorkspace`) and who did it (the audit trail, src/audit).
 */
import { AppError } from '../core/errors.ts';
import type { Scope } from './scopes.ts';

export type Actor =
  /** `prefix`: the key's first characters, the only part of it anyone may see again. */
  | { type: 'api_key'; id: string; prefix: string }
  /** `isolated`: the embed is multi-tenant, so the session sees its user's templates and shared ones. */
  | {
      type: 'embed_session';
      embedId: string;
      userId: string | null;
      isolated: boolean;
      /** The embed shows the workspace's templates only as published, read-only (docs/versions.md). */
      publishedOnly: boolean;
    }
  | { type: 'oauth'; clientId: string; userId: string }
  /** A signed render URL, by the URL-signing secret that verified it. */
  | { type: 'signed_url'; secretId: string }
  /** A person signed in to the console; operators manage every workspace. */
  | { type: 'person'; userId: string; email: string; operator: boolean }
  /** The holder of PLATEN_ADMIN_TOKEN (the operator API, `platen admin`). */
  | { type: 'operator_token' }
  /** Whoever holds a one-time setup link (it creates the first operator). */
  | { type: 'setup_link' }
  /** The service itself, at a named task (`bootstrap`: the first start's workspace and key). */
  | { type: 'system'; task: string };

export interface Principal {
  /** The workspace acted in; '' for a principal that names none (the operator API). */
  workspaceId: string;
  scopes: ReadonlySet<Scope>;
  actor: Actor;
  /** The client's address (behind PLATEN_TRUST_PROXY, the forwarded one); null off the network. */
  address: string | null;
}

/** Where a render came from (render history, the ledger's charges): stable labels by id. */
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
    case 'operator_token':
      return 'operator-token';
    case 'setup_link':
      return 'setup-link';
    case 'system':
      return actor.task;
  }
}

export function requirePrincipal(principal: Principal | undefined): Principal {
  if (!principal) throw new AppError('INVALID_API_KEY');
  return principal;
}

/** The request's principal: every authenticated route has one (the kernel put it there). */
export function principalOf(request: { principal?: Principal }): Principal {
  return requirePrincipal(request.principal);
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

/**
 * An operator acting for the whole deployment: the operator token, or an operator's session on the
 * operator API (which names no workspace). An operator in one workspace's console screens is
 * confined to that workspace like anyone there.
 */
export function isOperator(principal: Principal): boolean {
  if (principal.workspaceId !== '') return false;
  const { actor } = principal;
  return (
    actor.type === 'operator_token' || actor.type === 'system' || (actor.type === 'person' && actor.operator)
  );
}

/** The service's own principal for a task it does unasked (the first start's bootstrap). */
export function systemPrincipal(task: string): Principal {
  return { workspaceId: '', scopes: new Set(), actor: { type: 'system', task }, address: null };
}

/**
 * Whether the principal may manage the workspace's keys, webhooks, embeds and secrets: an
 * operator any, a person in the console the one in its path; nobody else (an API key, a session,
 * a token manages nothing). Fails closed: a principal naming no workspace that is not an
 * operator's reaches nothing.
 */
export function manages(principal: Principal, workspaceId: string): boolean {
  if (isOperator(principal)) return true;
  return (
    principal.actor.type === 'person' && principal.workspaceId !== '' && principal.workspaceId === workspaceId
  );
}

/** 404 for a workspace the principal may not manage, as for one that does not exist. */
export function assertManages(principal: Principal, workspaceId: string, notFound: () => AppError): void {
  if (!manages(principal, workspaceId)) throw notFound();
}

/** Operator-only actions (workspaces, credits, people, the audit log): anyone else is 404. */
export function assertOperator(principal: Principal): void {
  if (!isOperator(principal)) throw new AppError('NOT_FOUND');
}
