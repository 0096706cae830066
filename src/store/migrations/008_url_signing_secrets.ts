/**
 * URL-signing secrets: per workspace, the HMAC keys that sign render URLs
 * (`GET /v1/templates/:id/image.png?…&sig=…`). A rotation keeps the previous secret valid until
 * `previous_valid_until`; `render_cap` bounds the renders charged through URLs a secret signed,
 * counted in `renders`. Secrets are kept in clear: an HMAC needs the key itself.
 */
import type { Kysely } from 'kysely';

export const urlSigningSecretsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('url_signing_secrets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_valid_until', 'text')
      .addColumn('render_cap', 'integer')
      .addColumn('renders', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('rotated_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema
      .createIndex('url_signing_secrets_workspace')
      .on('url_signing_secrets')
      .column('workspace_id')
      .execute();
  },
};
