/**
 * Template versions (docs/versions.md): publishing a draft freezes a copy of its document under
 * the next number of its template. Rows are never updated: a version is immutable, and a rollback
 * writes the draft, not a version. `(template_id, number)` is the key every pin resolves through;
 * the unique index also makes two concurrent publishes of one template agree on one number (the
 * loser retries). `document_hash`, `page_ids` and `active_page_id` serve renders as the template's
 * own columns do (the render path reads them before the document).
 */
import type { Kysely } from 'kysely';

export const templateVersionsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('template_versions')
      .addColumn('template_id', 'text', (col) => col.notNull())
      .addColumn('number', 'integer', (col) => col.notNull())
      .addColumn('workspace_id', 'text', (col) => col.notNull())
      .addColumn('document', 'text', (col) => col.notNull())
      .addColumn('document_hash', 'text', (col) => col.notNull())
      .addColumn('page_ids', 'text', (col) => col.notNull())
      .addColumn('active_page_id', 'text', (col) => col.notNull())
      .addColumn('width', 'integer', (col) => col.notNull())
      .addColumn('height', 'integer', (col) => col.notNull())
      .addColumn('page_count', 'integer', (col) => col.notNull())
      .addColumn('note', 'text')
      .addColumn('draft_revision', 'integer', (col) => col.notNull())
      .addColumn('published_by', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('template_versions_pk', ['template_id', 'number'])
      .execute();
  },
};
