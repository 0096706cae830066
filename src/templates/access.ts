/**
 * Who may see and change which template, written once for every entry point. An API key (and an
 * OAuth token) acts for the whole workspace. An embed session of a multi-tenant embed acts for one
 * end-user: it sees that user's templates plus the workspace's shared ones, may change only its
 * own, and creates templates private to its user; another user's template does not exist for it.
 * A session of an embed with multi-tenant data disabled acts for the workspace's own templates
 * (owner null): it sees and changes all of them, but never end-users' private ones.
 *
 * An embed that shows published templates only (`publishedOnly`, docs/versions.md) narrows both:
 * the workspace's own templates (owner null) are seen only when published, as their latest
 * version, and never changed; an end-user's own templates are as before.
 */
import { type Ownership, ownedBy, type Principal, tenancyOf } from '../auth/index.ts';
import type { TemplateVisibility } from '../store/templates.ts';

type TemplateOwnership = Ownership & { shared: boolean };

export interface TemplateAccess {
  /** What a list shows (a store filter). */
  visibility: TemplateVisibility;
  /** The owner of templates this principal creates (null: the workspace). */
  ownerOnCreate: string | null;
  canSee(template: TemplateOwnership): boolean;
  canChange(template: TemplateOwnership): boolean;
  /** Seen (and rendered) only as its latest published version: the draft is not this principal's. */
  pinsPublished(template: Pick<TemplateOwnership, 'ownerUserId'>): boolean;
}

const workspaceWide: TemplateAccess = {
  visibility: undefined,
  ownerOnCreate: null,
  canSee: () => true,
  canChange: () => true,
  pinsPublished: () => false,
};

/** A single-tenant embed's session: the workspace's own templates, not end-users' private ones. */
const workspaceOwned: TemplateAccess = {
  visibility: { workspaceOwned: true },
  ownerOnCreate: null,
  canSee: (t) => t.ownerUserId === null,
  canChange: (t) => t.ownerUserId === null,
  pinsPublished: () => false,
};

function tenantAccess(principal: Principal): TemplateAccess {
  const tenancy = tenancyOf(principal);
  if (tenancy.scope === 'workspace') return workspaceWide;
  if (tenancy.scope === 'workspace-owned') return workspaceOwned;
  const own = (t: TemplateOwnership) => ownedBy(tenancy, t);
  return {
    visibility: {
      workspaceOwned: false,
      endUser: { userId: tenancy.userId, embedId: tenancy.embedId },
      sharedToo: true,
    },
    ownerOnCreate: tenancy.userId,
    canSee: (t) => own(t) || t.shared,
    canChange: own,
    pinsPublished: () => false,
  };
}

export function accessOf(principal: Principal): TemplateAccess {
  const access = tenantAccess(principal);
  const { actor } = principal;
  if (actor.type !== 'embed_session' || !actor.publishedOnly) return access;
  // The workspace's own templates: published only (the list's filter; the service checks one
  // template's versions itself), never changed.
  const pinned = (t: Pick<TemplateOwnership, 'ownerUserId'>) => t.ownerUserId === null;
  return {
    ...access,
    // An embed session is never workspace-wide, so its list filter is always there to narrow.
    visibility: { workspaceOwned: false, ...access.visibility, publishedOnly: true },
    canChange: (t) => !pinned(t) && access.canChange(t),
    pinsPublished: pinned,
  };
}
