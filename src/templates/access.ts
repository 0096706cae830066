/**
 * Who may see and change which template, written once for every entry point. An API key (and an
 * OAuth token) acts for the whole workspace. An embed session of a multi-tenant embed acts for one
 * end-user: it sees that user's templates plus the workspace's shared ones, may change only its
 * own, and creates templates private to its user; another user's template does not exist for it.
 * A session of an embed with multi-tenant data disabled acts for the workspace.
 */
import type { Principal } from '../auth/index.ts';
import type { TemplateVisibility } from '../store/templates.ts';

interface Ownership {
  ownerUserId: string | null;
  shared: boolean;
}

export interface TemplateAccess {
  /** What a list shows (a store filter). */
  visibility: TemplateVisibility;
  /** The owner of templates this principal creates (null: the workspace). */
  ownerOnCreate: string | null;
  canSee(template: Ownership): boolean;
  canChange(template: Ownership): boolean;
}

const workspaceWide: TemplateAccess = {
  visibility: {},
  ownerOnCreate: null,
  canSee: () => true,
  canChange: () => true,
};

export function accessOf(principal: Principal): TemplateAccess {
  const { actor } = principal;
  if (actor.type !== 'embed_session' || !actor.isolated) return workspaceWide;
  const userId = actor.userId;
  const own = (t: Ownership) => userId !== null && t.ownerUserId === userId;
  return {
    visibility: { ownerUserId: userId, includeShared: true },
    ownerOnCreate: userId,
    canSee: (t) => own(t) || t.shared,
    canChange: own,
  };
}
