/**
 * Render bookkeeping: one output row per rendered file (the ids clients see), one claim per render
 * identity (so concurrent identical requests render once, across processes), a heartbeat per
 * running instance (so a pending render of a crashed instance can be told from a live one's), and
 * on templates the draft's hash and page ids, so a replay is found without reading the document.
 */
import type { Kysely } from 'kysely';
import { draftSummary } from '../draft-summary.ts';

interface TemplateRow {
  id: string;
  document: string;
}

async function backfillTemplateSummaries(db: Kysely<unknown>): Promise<void> {
  const untyped = db as unknown as Kysely<{
    templates: TemplateRow & { document_hash: string; page_ids: string; active_page_id: string };
  }>;
  const rows = await untyped.selectFrom('templates').select(['id', 'document']).execute();
  for (const row of rows) {
    const summary = draftSummary(row.document);
    await untyped
      .updateTable('templates')
      .set({
        document_hash: summary.documentHash,
        page_ids: summary.pageIds,
        active_page_id: summary.activePageId,
      })
      .where('id', '=', row.id)
      .execute();
  }
}

export const rendersMigration = {
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

    await db.schema.alterTable('templates').addColumn('document_hash', 'text').execute();
    await db.schema.alterTable('templates').addColumn('page_ids', 'text').execute();
    await db.schema.alterTable('templates').addColumn('active_page_id', 'text').execute();
    await backfillTemplateSummaries(db);

    await db.schema
      .createTable('platen_instances')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('heartbeat_at', 'text', (c) => c.notNull())
      .execute();
  },
};
