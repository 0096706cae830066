/**
 * URL-signing secrets of a workspace (signed render URLs): create, list, rotate (the previous secret
 * stays valid until a given time), change the render cap, revoke; the secrets a signature may have
 * been made with; and the render cap's counter, reserved before a charged render and released when
 * the render turned out free or failed, so a cap is never exceeded under concurrency.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import { newId } from '../core/ids.ts';
import type { Database, UrlSigningSecretsTable } from './schema.ts';

export interface UrlSecretRecord {
  id: string;
  workspaceId: string;
  name: string;
  renderCap: number | null;
  renders: number;
  createdAt: string;
  rotatedAt: string | null;
  /** Until when the secret replaced by the last rotation still verifies (null: none does). */
  previousValidUntil: string | null;
}

export interface UrlSecretWithKey extends UrlSecretRecord {
  secret: string;
}

/** A key a signature may verify with: the current secret, or the previous one within its grace. */
export interface VerifyingKey {
  secretId: string;
  key: string;
}

function record(row: Selectable<UrlSigningSecretsTable>): UrlSecretWithKey {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    renderCap: row.render_cap === null ? null : Number(row.render_cap),
    renders: Number(row.renders),
    createdAt: row.created_at,
    rotatedAt: row.rotated_at,
    previousValidUntil: row.previous_valid_until,
    secret: row.secret,
  };
}

export class UrlSecretRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: {
    workspaceId: string;
    name: string;
    secret: string;
    renderCap: number | null;
  }): Promise<UrlSecretWithKey> {
    const row = {
      id: newId('urlSecret'),
      workspace_id: input.workspaceId,
      name: input.name,
      secret: input.secret,
      previous_secret: null,
      previous_valid_until: null,
      render_cap: input.renderCap,
      renders: 0,
      created_at: new Date().toISOString(),
      rotated_at: null,
      revoked_at: null,
    };
    await this.db.insertInto('url_signing_secrets').values(row).execute();
    return record(row);
  }

  /** A live (not revoked) secret, or null. */
  async get(id: string): Promise<UrlSecretWithKey | null> {
    const row = await this.db
      .selectFrom('url_signing_secrets')
      .selectAll()
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row ? record(row) : null;
  }

  async list(workspaceId: string): Promise<UrlSecretWithKey[]> {
    const rows = await this.db
      .selectFrom('url_signing_secrets')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(record);
  }

  /** Every key a URL of the workspace may be signed with at `now`. */
  async verifyingKeys(workspaceId: string, now: Date): Promise<VerifyingKey[]> {
    const rows = await this.db
      .selectFrom('url_signing_secrets')
      .select(['id', 'secret', 'previous_secret', 'previous_valid_until'])
      .where('workspace_id', '=', workspaceId)
      .where('revoked_at', 'is', null)
      .execute();
    const at = now.toISOString();
    return rows.flatMap((row) => [
      { secretId: row.id, key: row.secret },
      ...(row.previous_secret && row.previous_valid_until && row.previous_valid_until > at
        ? [{ secretId: row.id, key: row.previous_secret }]
        : []),
    ]);
  }

  /** A new current secret; the replaced one verifies until `previousValidUntil`. */
  async rotate(id: string, secret: string, previousValidUntil: Date): Promise<UrlSecretWithKey | null> {
    const now = new Date().toISOString();
    const result = await this.db
      .updateTable('url_signing_secrets')
      .set((eb) => ({
        previous_secret: eb.ref('secret'),
        previous_valid_until: previousValidUntil.toISOString(),
        secret,
        rotated_at: now,
      }))
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) ? this.get(id) : null;
  }

  async setRenderCap(id: string, renderCap: number | null): Promise<UrlSecretWithKey | null> {
    const result = await this.db
      .updateTable('url_signing_secrets')
      .set({ render_cap: renderCap })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) ? this.get(id) : null;
  }

  /** Revokes: no URL it signed verifies any more. False when there was none. */
  async revoke(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('url_signing_secrets')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Takes one render of the cap (always succeeds without a cap); false when the cap is reached. */
  async reserveRender(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('url_signing_secrets')
      .set({ renders: sql`renders + 1` })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('render_cap', 'is', null), eb('renders', '<', eb.ref('render_cap'))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives back a reservation whose render was free after all, or failed. */
  async releaseRender(id: string): Promise<void> {
    await this.db
      .updateTable('url_signing_secrets')
      .set({ renders: sql`renders - 1` })
      .where('id', '=', id)
      .where('renders', '>', 0)
      .execute();
  }
}
