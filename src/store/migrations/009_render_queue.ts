/**
 * Renders that run in the background (`async: true`): `mode` tells them from the renders a request
 * waits for, `job` holds what executing one needs (who asked, the document as modified, the pages and
 * options), and `locked_until` is the lease of the instance executing it. A background render whose
 * instance died is run again when its lease ends (never refunded for that: it was accepted).
 */
import { type Kysely, sql } from 'kysely';

export const renderQueueMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('renders')
      .addColumn('mode', 'text', (c) => c.notNull().defaultTo('sync'))
      .execute();
    await db.schema.alterTable('renders').addColumn('job', 'text').execute();
    await db.schema.alterTable('renders').addColumn('locked_until', 'text').execute();
    // Partial: only background renders still to do, what the workers look for.
    await sql`CREATE INDEX renders_queue ON renders (created_at) WHERE mode = 'async' AND status = 'pending'`.execute(
      db,
    );
  },
};
