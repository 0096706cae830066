/**
 * Bulk renders: a batch of rows of one template, each row a background render (`render_id`), or
 * failed on its own (`error`: a bad row fails that row, not the batch). The batch is `running` until
 * every row is done or failed, then `completed`, or `cancelled`.
 */
import type { Kysely } from 'kysely';

export const batchesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('template_id', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema.createIndex('batches_running').on('batches').column('status').execute();
    await db.schema
      .createTable('batch_rows')
      .addColumn('batch_id', 'text', (c) => c.notNull().references('batches.id'))
      .addColumn('row_number', 'integer', (c) => c.notNull())
      .addColumn('render_id', 'text')
      .addColumn('error', 'text')
      // 1 when accepting this row charged its render (the batch owns it: a cancel may refund it).
      .addColumn('charged', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('batch_rows_pk', ['batch_id', 'row_number'])
      .execute();
    await db.schema.createIndex('batch_rows_render').on('batch_rows').column('render_id').execute();
  },
};
