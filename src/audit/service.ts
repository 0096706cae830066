/**
 * The audit log as operators read it: newest first, a page at a time, filtered by workspace,
 * action and person. Operators only (the operator API, and the console's Audit screen through it).
 */
import { assertOperator, type Principal } from '../auth/principal.ts';
import { validationFailed } from '../core/errors.ts';
import type { AuditEntry, AuditFilter } from '../store/console.ts';
import type { Store } from '../store/index.ts';
import { decodeCursor, encodeCursor } from '../store/paging.ts';
import { AUDIT_ACTOR_TYPES } from './actions.ts';

export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];
export type AuditLogEntry = AuditEntry & { actor: { type: AuditActorType } };

const actorTypeOf = (type: string): AuditActorType =>
  (AUDIT_ACTOR_TYPES as readonly string[]).includes(type) ? (type as AuditActorType) : 'system';

export interface AuditQuery {
  limit: number;
  cursor?: string;
  workspaceId?: string;
  action?: string;
  /** A person's user id (or an API key's id). */
  userId?: string;
}

export class AuditLog {
  constructor(private readonly store: Store) {}

  async list(
    principal: Principal,
    query: AuditQuery,
  ): Promise<{ items: AuditLogEntry[]; nextCursor: string | null }> {
    assertOperator(principal);
    const position = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (position === null) throw validationFailed([{ path: 'cursor', message: 'not a cursor of this list' }]);
    const filter: AuditFilter = {
      ...(query.workspaceId !== undefined ? { workspaceId: query.workspaceId } : {}),
      ...(query.action !== undefined ? { action: query.action } : {}),
      ...(query.userId !== undefined ? { actorId: query.userId } : {}),
    };
    const rows = await this.store.console.auditLog({
      limit: query.limit + 1,
      ...filter,
      ...(position ? { before: { at: position.createdAt, id: position.id } } : {}),
    });
    const items = rows.slice(0, query.limit).map((entry) => ({
      ...entry,
      actor: { ...entry.actor, type: actorTypeOf(entry.actor.type) },
    }));
    const last = items.at(-1);
    return {
      items,
      nextCursor:
        rows.length > query.limit && last ? encodeCursor({ createdAt: last.at, id: last.id }) : null,
    };
  }
}
