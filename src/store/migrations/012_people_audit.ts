/**
 * People's lifecycle and a complete audit trail (docs/console.md, People; docs/api.md, Audit log):
 * - users can be disabled (kept, signed out, refused at sign-in) and remember their last sign-in;
 * - one-time password-reset links, kept as the SHA-256 of their token like setup links;
 * - audit entries name the actor by kind, id and a readable label (a person's email, an API key's
 *   prefix) and the client address, and are filtered by workspace, action and person.
 * Earlier entries (`person:<id>`, `operator-token`, `setup-link`, `bootstrap`) are split in place.
 */
import { type Kysely, sql } from 'kysely';

export const peopleAuditMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
    await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();
    await db.schema
      .createTable('password_resets')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();

    await db.schema
      .alterTable('audit_log')
      .addColumn('actor_type', 'text', (c) => c.notNull().defaultTo('system'))
      .execute();
    await db.schema.alterTable('audit_log').addColumn('actor_id', 'text').execute();
    await db.schema
      .alterTable('audit_log')
      .addColumn('actor_label', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.alterTable('audit_log').addColumn('address', 'text').execute();
    await sql`update audit_log set actor_type = 'person', actor_id = substr(actor, 8),
      actor_label = coalesce((select email from users where users.id = substr(audit_log.actor, 8)), substr(actor, 8))
      where actor like 'person:%'`.execute(db);
    await sql`update audit_log set actor_type = 'operator_token', actor_label = 'operator token'
      where actor = 'operator-token'`.execute(db);
    await sql`update audit_log set actor_type = 'setup_link', actor_label = 'setup link'
      where actor = 'setup-link'`.execute(db);
    await sql`update audit_log set actor_label = actor where actor_label = ''`.execute(db);
    for (const column of ['workspace_id', 'action', 'actor_id'] as const) {
      await db.schema
        .createIndex(`audit_log_${column}_at`)
        .on('audit_log')
        .columns([column, 'at', 'id'])
        .execute();
    }
  },
};
