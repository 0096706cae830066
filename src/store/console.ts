/**
 * The console's records: one-time setup links (kept as the SHA-256 of their token; redeemed by a
 * conditional update, so a link works once however many try) and the append-only audit log.
 */
import type { Kysely } from 'kysely';
import { newId } from '../core/ids.ts';
import type { Database } from './schema.ts';

/** Who did it, as the audit log keeps it (src/audit/trail.ts derives it from the principal). */
export interface AuditActor {
  type: string;
  id: string | null;
  label: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: AuditActor;
  action: string;
  workspaceId: string | null;
  target: string | null;
  details: unknown;
  address: string | null;
}

export interface AuditFilter {
  workspaceId?: string;
  action?: string;
  /** The person (their user id), or an API key's id. */
  actorId?: string;
}

export class ConsoleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new setup link; every earlier unused one stops working (one live link at a time). */
  async createSetupLink(tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db
      .updateTable('setup_links')
      .set({ used_at: new Date().toISOString() })
      .where('used_at', 'is', null)
      .execute();
    await this.db
      .insertInto('setup_links')
      .values({
        token_hash: tokenHash,
        created_at: new Date().toISOString(),
        expires_at: expiresAt.toISOString(),
        used_at: null,
      })
      .execute();
  }

  /** Whether the link may still be used (not used, not expired). */
  async setupLinkValid(tokenHash: string, now = new Date()): Promise<boolean> {
    const row = await this.db
      .selectFrom('setup_links')
      .select('token_hash')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Marks the link used; true for the one caller that did (unused and unexpired until then). */
  async redeemSetupLink(tokenHash: string, now = new Date()): Promise<boolean> {
    const result = await this.db
      .updateTable('setup_links')
      .set({ used_at: now.toISOString() })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async audit(entry: Omit<AuditEntry, 'id' | 'at'>): Promise<AuditEntry> {
    const row = {
      id: newId('audit'),
      at: new Date().toISOString(),
      actor: legacyActor(entry.actor),
      actor_type: entry.actor.type,
      actor_id: entry.actor.id,
      actor_label: entry.actor.label,
      action: entry.action,
      workspace_id: entry.workspaceId,
      target: entry.target,
      details: entry.details === undefined || entry.details === null ? null : JSON.stringify(entry.details),
      address: entry.address,
    };
    await this.db.insertInto('audit_log').values(row).execute();
    return { ...entry, id: row.id, at: row.at };
  }

  /** Newest first; `before`: the `at`/`id` cursor of the last entry of the previous page. */
  async auditLog(
    options: { limit: number; before?: { at: string; id: string } } & AuditFilter,
  ): Promise<AuditEntry[]> {
    let query = this.db.selectFrom('audit_log').selectAll();
    if (options.workspaceId !== undefined) query = query.where('workspace_id', '=', options.workspaceId);
    if (options.action !== undefined) query = query.where('action', '=', options.action);
    if (options.actorId !== undefined) query = query.where('actor_id', '=', options.actorId);
    const before = options.before;
    if (before)
      query = query.where((eb) =>
        eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]),
      );
    const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
    return rows.map((r) => ({
      id: r.id,
      at: r.at,
      actor: { type: r.actor_type, id: r.actor_id, label: r.actor_label },
      action: r.action,
      workspaceId: r.workspace_id,
      target: r.target,
      details: r.details ? JSON.parse(r.details) : null,
      address: r.address,
    }));
  }
}

/** The one-string form of earlier entries, still written for readers of the raw table. */
function legacyActor(actor: AuditActor): string {
  return actor.id === null ? actor.type : `${actor.type}:${actor.id}`;
}
