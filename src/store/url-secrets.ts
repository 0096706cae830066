/**
 * URL-signing secrets of a workspace (signed render URLs): create, list, rotate, change the render
 * cap, revoke; the secrets a signature may have been made with; and the render cap's counter,
 * reserved before a charged render and released when the render turned out free or failed, so a cap
 * is never exceeded under concurrency.
 *
 * Rotation rule: every secret a rotation replaces keeps verifying until the grace end that rotation
 * gave it (`url_signing_previous_secrets`), however many rotations follow within that grace: a URL
 * signed with key 1 works until rotation 1's grace ends even after rotations 2 and 3. At most
 * MAX_PREVIOUS_SECRETS replaced secrets are kept per secret (the ones replaced earliest go first).
 * Revoking ends the current and every previous secret at once. `previousValidUntil` is the grace end
 * of the secret the last rotation replaced, as before.
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

/** Replaced secrets kept per URL-signing secret while their grace lasts; older ones go first. */
export const MAX_PREVIOUS_SECRETS = 20;

/** A secret a rotation replaced and when its grace ends (migration 013). */
interface PreviousSecretsTable {
  secret_id: string;
  secret: string;
  valid_until: string;
  replaced_at: string;
  generation: number;
}

type WithPrevious = Database & { url_signing_previous_secrets: PreviousSecretsTable };

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
  private readonly all: Kysely<WithPrevious>;

  constructor(private readonly db: Kysely<Database>) {
    this.all = db.withTables<{ url_signing_previous_secrets: PreviousSecretsTable }>();
  }

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

  /**
   * Every key a URL of the workspace may be signed with at `now`: each live secret's current key,
   * and each key a rotation replaced whose own grace has not ended.
   */
  async verifyingKeys(workspaceId: string, now: Date): Promise<VerifyingKey[]> {
    // One round trip (every signed URL asks): the current keys first, then the replaced ones.
    const rows = await this.all
      .selectFrom('url_signing_secrets as s')
      .select([
        's.id as secret_id',
        's.secret',
        sql<number>`1`.as('current'),
        sql<number>`0`.as('generation'),
      ])
      .where('s.workspace_id', '=', workspaceId)
      .where('s.revoked_at', 'is', null)
      .unionAll((eb) =>
        eb
          .selectFrom('url_signing_previous_secrets as p')
          .innerJoin('url_signing_secrets as s', 's.id', 'p.secret_id')
          .select(['p.secret_id', 'p.secret', sql<number>`0`.as('current'), 'p.generation'])
          .where('s.workspace_id', '=', workspaceId)
          .where('s.revoked_at', 'is', null)
          .where('p.valid_until', '>', now.toISOString()),
      )
      .execute();
    return rows
      .sort((a, b) => Number(b.current) - Number(a.current) || Number(b.generation) - Number(a.generation))
      .map((row) => ({ secretId: row.secret_id, key: row.secret }));
  }

  /**
   * A new current secret; the replaced one verifies until `previousValidUntil`, and so does every
   * secret replaced before it until its own grace end (see the rotation rule above). One
   * transaction: the swap is a conditional update (concurrent rotations each replace the secret the
   * other left, none is lost), then the replaced secret is kept and the expired ones dropped.
   */
  async rotate(id: string, secret: string, previousValidUntil: Date): Promise<UrlSecretWithKey | null> {
    const now = new Date().toISOString();
    const rotated = await this.all.transaction().execute(async (trx) => {
      const swapped = await trx
        .updateTable('url_signing_secrets')
        .set((eb) => ({
          previous_secret: eb.ref('secret'),
          previous_valid_until: previousValidUntil.toISOString(),
          secret,
          rotated_at: now,
        }))
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning('previous_secret')
        .executeTakeFirst();
      const replaced = swapped?.previous_secret;
      if (!replaced) return false;
      // The swap holds the secret's row (PostgreSQL) or the database (SQLite): no other rotation
      // of this secret reads the last generation until this one commits.
      const last = await trx
        .selectFrom('url_signing_previous_secrets')
        .select((eb) => eb.fn.max('generation').as('generation'))
        .where('secret_id', '=', id)
        .executeTakeFirst();
      const generation = Number(last?.generation ?? 0) + 1;
      const validUntil = previousValidUntil.toISOString();
      await trx
        .insertInto('url_signing_previous_secrets')
        .values({ secret_id: id, secret: replaced, valid_until: validUntil, replaced_at: now, generation })
        .onConflict((oc) =>
          oc.columns(['secret_id', 'secret']).doUpdateSet({ valid_until: validUntil, generation }),
        )
        .execute();
      await trx
        .deleteFrom('url_signing_previous_secrets')
        .where('secret_id', '=', id)
        .where('valid_until', '<=', now)
        .execute();
      // Bounded: beyond MAX_PREVIOUS_SECRETS, the secrets replaced earliest stop verifying first.
      const kept = await trx
        .selectFrom('url_signing_previous_secrets')
        .select('secret')
        .where('secret_id', '=', id)
        .orderBy('generation', 'desc')
        .execute();
      const beyond = kept.slice(MAX_PREVIOUS_SECRETS).map((row) => row.secret);
      if (beyond.length > 0)
        await trx
          .deleteFrom('url_signing_previous_secrets')
          .where('secret_id', '=', id)
          .where('secret', 'in', beyond)
          .execute();
      return true;
    });
    return rotated ? this.get(id) : null;
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

  /** Revokes: no URL it signed verifies any more (nor any it replaced). False when there was none. */
  async revoke(id: string): Promise<boolean> {
    return this.all.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('url_signing_secrets')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('url_signing_previous_secrets').where('secret_id', '=', id).execute();
      return true;
    });
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
