/**
 * Whose rows a principal may use, written once for templates, assets and renders. Three answers:
 * - `workspace`: an API key or an OAuth token acts for the whole workspace;
 * - `workspace-owned`: a session of an embed without multi-tenant data acts for the workspace's own
 *   rows (owner null) only, never for end-users' private rows made through other embeds;
 * - `end-user`: a session of a multi-tenant embed acts for one end-user of that embed (user ids are
 *   the customer's, so they mean something only within their embed).
 */
import { AppError } from '../core/errors.ts';
import type { OwnerFilter } from '../store/paging.ts';
import type { Principal } from './principal.ts';

export type Tenancy =
  | { scope: 'workspace' }
  | { scope: 'workspace-owned'; embedId: string }
  | { scope: 'end-user'; embedId: string; userId: string };

/** What a stored row says about its owner: null owner is the workspace's. */
export interface Ownership {
  ownerUserId: string | null;
  embedId: string | null;
}

export function tenancyOf(principal: Principal): Tenancy {
  const { actor } = principal;
  if (actor.type !== 'embed_session') return { scope: 'workspace' };
  if (!actor.isolated) return { scope: 'workspace-owned', embedId: actor.embedId };
  // Fail closed: an isolated session with no end-user must never act for more than a user
  // (the session authenticator refuses such tokens; this guards any other way in).
  if (actor.userId === null) throw new AppError('INVALID_SESSION');
  return { scope: 'end-user', embedId: actor.embedId, userId: actor.userId };
}

/** The end-user's own: created by this user through this embed. */
export function ownedBy(tenancy: Tenancy, row: Ownership): boolean {
  return (
    tenancy.scope === 'end-user' && row.ownerUserId === tenancy.userId && row.embedId === tenancy.embedId
  );
}

/** Whether a row is the principal's to use: everything for the workspace, else own or the workspace's. */
export function ownsOrShared(tenancy: Tenancy, row: Ownership): boolean {
  return tenancy.scope === 'workspace' || row.ownerUserId === null || ownedBy(tenancy, row);
}

/** The owner recorded on a row this principal creates: its end-user, or the workspace (nulls). */
export function ownerOnCreate(tenancy: Tenancy): Ownership {
  return tenancy.scope === 'end-user'
    ? { ownerUserId: tenancy.userId, embedId: tenancy.embedId }
    : { ownerUserId: null, embedId: null };
}

/**
 * Which assets a principal's lists show, as a store filter: all, or the workspace's own plus, for
 * an end-user, that user's. (Templates differ: see templates/access.ts.)
 */
export function assetFilterOf(tenancy: Tenancy): OwnerFilter {
  if (tenancy.scope === 'workspace') return undefined;
  if (tenancy.scope === 'workspace-owned') return { workspaceOwned: true };
  return { workspaceOwned: true, endUser: { embedId: tenancy.embedId, userId: tenancy.userId } };
}

/** Part of a render's identity: which assets it could use, so no replay crosses that line. */
export function assetScopeOf(tenancy: Tenancy): string | null {
  if (tenancy.scope === 'workspace') return null;
  if (tenancy.scope === 'workspace-owned') return 'workspace-owned';
  return `user:${tenancy.embedId}:${tenancy.userId}`;
}
