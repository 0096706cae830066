/**
 * Two records that make a rule hold under concurrency and over time:
 *
 * - `batch_holds`: the credits a batch was admitted with, held while its rows are being accepted
 *   (each row charges its own render). A batch is admitted only if the balance less every live
 *   hold of the workspace pays it, checked and held in one transaction, so two batches cannot both
 *   pass a balance that covers one. A hold shrinks as rows are charged, is deleted when acceptance
 *   ends, and stops counting at `until` (an instance that died mid-acceptance).
 * - `url_signing_previous_secrets`: every secret a rotation replaced, each verifying until its own
 *   grace ends (`valid_until`), so a second rotation within the grace does not cut the first
 *   secret's. The single `previous_secret` column kept only the last one; its value is copied here.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

export const holdsAndPreviousKeysMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('batch_holds')
      .addColumn('batch_id', 'text', (c) => c.primaryKey().references('batches.id'))
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('until', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('batch_holds_workspace').on('batch_holds').column('workspace_id').execute();

    await db.schema
      .createTable('url_signing_previous_secrets')
      .addColumn('secret_id', 'text', (c) => c.notNull().references('url_signing_secrets.id'))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('valid_until', 'text', (c) => c.notNull())
      .addColumn('replaced_at', 'text', (c) => c.notNull())
      // The rotation's order among this secret's (1, 2, …): rotations in one millisecond stay ordered.
      .addColumn('generation', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('url_signing_previous_secrets_pk', ['secret_id', 'secret'])
      .execute();
    await sql`
      insert into url_signing_previous_secrets (secret_id, secret, valid_until, replaced_at, generation)
      select id, previous_secret, previous_valid_until, coalesce(rotated_at, created_at), 0
      from url_signing_secrets
      where previous_secret is not null and previous_valid_until is not null and revoked_at is null
    `.execute(db);
  },
};
