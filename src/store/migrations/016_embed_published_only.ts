/**
 * An embed may show the workspace's templates only as published (docs/versions.md, "Embeds that
 * show published templates only"): a flag on the embed, off for every existing one.
 */
import type { Kysely } from 'kysely';

export const embedPublishedOnlyMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('embeds')
      .addColumn('published_only', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
};
