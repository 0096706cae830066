/**
 * The draft revision a template's thumbnail last answered for (rendered, or failed to render), so
 * any instance can find templates whose thumbnail was never attempted, for instance because the
 * instance that took the save stopped before rendering it. Existing thumbnails count as current.
 */
import { type Kysely, sql } from 'kysely';

export const thumbnailRevisionMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('templates').addColumn('thumbnail_revision', 'integer').execute();
    await sql`UPDATE templates SET thumbnail_revision = revision WHERE thumbnail_key IS NOT NULL`.execute(db);
    // Partial: only templates waiting for a thumbnail are indexed, so the catch-up sweep's lookup
    // stays small however many templates are up to date (SQLite and PostgreSQL both support it).
    await sql`CREATE INDEX templates_thumbnail_due ON templates (updated_at)
      WHERE thumbnail_revision IS NULL OR thumbnail_revision < revision`.execute(db);
  },
};
