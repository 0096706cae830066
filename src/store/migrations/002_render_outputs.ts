/**
 * Render bookkeeping: one output row per rendered file (the ids clients see), one claim per render
 * identity (so concurrent identical requests render once, across processes), and a heartbeat per
 * running instance (so a pending render of a crashed instance can be told from a live one's).
 */
import type { Kysely } from 'kysely';

export const renderOutputsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('render_outputs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('render_id', 'text', (c) => c.notNull().references('renders.id'))
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('file_key', 'text', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('render_outputs_render').on('render_outputs').column('render_id').execute();

    await db.schema
      .createTable('render_claims')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('identity_hash', 'text', (c) => c.notNull())
      .addColumn('render_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('render_claims_pk', ['workspace_id', 'identity_hash'])
      .execute();

    await db.schema.alterTable('renders').addColumn('instance_id', 'text').execute();

    await db.schema
      .createTable('platen_instances')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('heartbeat_at', 'text', (c) => c.notNull())
      .execute();
  },
};
