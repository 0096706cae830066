/**
 * Embeds and webhooks: embed configurations (branding, toggles, tenancy, session lifetime, how a
 * session may be minted), webhook subscriptions with their signing secret, the durable outbox of
 * events and the log of delivery attempts; a template's thumbnail file and an asset's end-user.
 */
import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

export function embedsWebhooksMigration(dialect: Dialect) {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('embeds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('brand_title', 'text', (c) => c.notNull())
        .addColumn('brand_icon_url', 'text', (c) => c.notNull())
        .addColumn('brand_accent_color', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('downloads_enabled', 'integer', (c) => c.notNull())
        .addColumn('asset_picker_enabled', 'integer', (c) => c.notNull())
        .addColumn('smart_resize_enabled', 'integer', (c) => c.notNull())
        .addColumn('multi_tenant', 'integer', (c) => c.notNull())
        .addColumn('session_ttl_seconds', 'integer', (c) => c.notNull())
        .addColumn('mint_requires_api_key', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('embeds_workspace').on('embeds').column('workspace_id').execute();

      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema.createIndex('webhooks_workspace').on('webhooks').column('workspace_id').execute();

      await db.schema
        .createTable('webhook_outbox')
        .addColumn('seq', serial, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_outbox_due')
        .on('webhook_outbox')
        .columns(['status', 'next_attempt_at'])
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('seq', serial, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('webhook_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('ok', 'integer', (c) => c.notNull())
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_webhook')
        .on('webhook_deliveries')
        .columns(['webhook_id', 'seq'])
        .execute();

      await db.schema.alterTable('templates').addColumn('thumbnail_key', 'text').execute();
      await db.schema.alterTable('assets').addColumn('owner_user_id', 'text').execute();
      await db.schema.alterTable('assets').addColumn('embed_id', 'text').execute();
    },
  };
}
