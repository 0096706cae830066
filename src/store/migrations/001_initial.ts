/** The first schema: workspaces, keys, templates, assets, renders and the credit ledger. */
import { type Kysely, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

export function initialMigration(dialect: Dialect) {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('credit_balance', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addCheckConstraint('workspaces_balance_non_negative', sql`credit_balance >= 0`)
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_workspace').on('api_keys').column('workspace_id').execute();

      await db.schema
        .createTable('templates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('page_count', 'integer', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('shared', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('owner_user_id', 'text')
        .addColumn('embed_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('templates_workspace_page')
        .on('templates')
        .columns(['workspace_id', 'id'])
        .execute();

      await db.schema
        .createTable('assets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('font_family', 'text')
        .addColumn('file_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('assets_workspace_page')
        .on('assets')
        .columns(['workspace_id', 'id'])
        .execute();

      await db.schema
        .createTable('renders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('template_id', 'text', (c) => c.notNull())
        .addColumn('identity_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('file_count', 'integer', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('error', 'text')
        .addColumn('file_keys', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('charged', 'integer', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('expired', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('renders_identity')
        .on('renders')
        .columns(['workspace_id', 'identity_hash'])
        .execute();
      await db.schema.createIndex('renders_status').on('renders').columns(['status', 'created_at']).execute();

      await db.schema
        .createTable('credit_ledger')
        .addColumn('seq', serial, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('delta', 'integer', (c) => c.notNull())
        .addColumn('balance_after', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('render_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('ledger_workspace')
        .on('credit_ledger')
        .columns(['workspace_id', 'seq'])
        .execute();

      await db.schema
        .createTable('platen_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
