/**
 * The one audit writer. Every sensitive action goes through `record` with the principal that did
 * it; who (the person's email and id, the operator token, an API key's prefix) and from which
 * address are read from the principal, never passed beside it, so no caller can name someone else.
 */
import type { Actor, Principal } from '../auth/principal.ts';
import type { AuditActor, AuditEntry } from '../store/console.ts';
import type { Store } from '../store/index.ts';
import type { AuditAction } from './actions.ts';

export interface AuditSubject {
  /** The workspace acted in, or null for deployment-wide actions (people, setup). */
  workspaceId: string | null;
  /** The id of the object acted on. */
  target: string | null;
  /** What changed: never a secret, a key or a password. */
  details?: Record<string, unknown> | null;
}

export function auditActorOf(actor: Actor): AuditActor {
  switch (actor.type) {
    case 'person':
      return { type: 'person', id: actor.userId, label: actor.email };
    case 'operator_token':
      return { type: 'operator_token', id: null, label: 'operator token' };
    case 'api_key':
      return { type: 'api_key', id: actor.id, label: actor.prefix };
    case 'oauth':
      return { type: 'oauth', id: actor.userId, label: `OAuth client ${actor.clientId}` };
    case 'embed_session':
      return { type: 'embed_session', id: actor.userId, label: `embed ${actor.embedId}` };
    case 'signed_url':
      return { type: 'signed_url', id: actor.secretId, label: `signed URL ${actor.secretId}` };
    case 'setup_link':
      return { type: 'setup_link', id: null, label: 'setup link' };
    case 'system':
      return { type: 'system', id: null, label: actor.task };
  }
}

export class AuditTrail {
  constructor(private readonly store: Store) {}

  record(principal: Principal, action: AuditAction, subject: AuditSubject): Promise<AuditEntry> {
    return this.store.console.audit({
      actor: auditActorOf(principal.actor),
      action,
      workspaceId: subject.workspaceId,
      target: subject.target,
      details: subject.details ?? null,
      address: principal.address,
    });
  }

  /**
   * What no principal did: sign-in attempts refused past the lockout, named by the address they
   * came from (the account is the target).
   */
  recordUnauthenticated(
    action: Extract<AuditAction, 'signin.locked'>,
    subject: AuditSubject & { address: string },
  ): Promise<AuditEntry> {
    return this.store.console.audit({
      actor: { type: 'system', id: null, label: 'sign-in' },
      action,
      workspaceId: subject.workspaceId,
      target: subject.target,
      details: subject.details ?? null,
      address: subject.address,
    });
  }
}
