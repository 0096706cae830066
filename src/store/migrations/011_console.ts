/**
 * The web console's people and records: operators (a user who manages every workspace), the
 * one-time setup link that creates the first operator, and the audit log of sensitive actions
 * (who did what, when; shown to operators); the console's own embed per workspace, and an index
 * for a workspace's recent renders.
 */
import type { Kysely } from 'kysely';

export const consoleMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('users')
      .addColumn('operator', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('setup_links')
      // SHA-256 of the link's token: the token itself is printed once and never stored.
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text')
      .addColumn('target', 'text')
      .addColumn('details', 'text')
      .execute();
    await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
    // The console's own embed per workspace (it opens the studio for signed-in people); never listed.
    await db.schema
      .alterTable('embeds')
      .addColumn('console', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // When each API key was last used (the console's key list).
    await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
    // A workspace's recent renders and its usage per day (the console's Renders and Usage screens).
    await db.schema
      .createIndex('renders_workspace_created')
      .on('renders')
      .columns(['workspace_id', 'created_at', 'id'])
      .execute();
  },
};
