/**
 * The audit log as operators read it: sensitive actions (an API key created or revoked, a webhook
 * secret rotated, an operator created), who did them and when, newest first, a page at a time.
 */
import { validationFailed } from '../core/errors.ts';
import type { AuditEntry } from '../store/console.ts';
import type { Store } from '../store/index.ts';
import { decodeCursor, encodeCursor } from '../store/paging.ts';

export class AuditService {
  constructor(private readonly store: Store) {}

  async list(options: {
    limit: number;
    cursor?: string;
  }): Promise<{ items: AuditEntry[]; nextCursor: string | null }> {
    const position = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
    if (position === null) throw validationFailed([{ path: 'cursor', message: 'not a cursor of this list' }]);
    const rows = await this.store.console.auditLog({
      limit: options.limit + 1,
      ...(position ? { before: { at: position.createdAt, id: position.id } } : {}),
    });
    const items = rows.slice(0, options.limit);
    const last = items.at(-1);
    return {
      items,
      nextCursor:
        rows.length > options.limit && last ? encodeCursor({ createdAt: last.at, id: last.id }) : null,
    };
  }
}
