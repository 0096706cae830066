/**
 * Credits on both databases: 64-bit balances and ledger amounts (exact past 2^31), the per-change
 * and balance maxima, enforced atomically, and the upgrade of a database from 32-bit columns.
 */
import { join } from 'node:path';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, testDatabase } from '../../test/harness/backends.ts';
import { AuditTrail } from '../audit/trail.ts';
import type { Principal } from '../auth/principal.ts';
import type { Store } from '../store/index.ts';
import { initialMigration } from '../store/migrations/001_initial.ts';
import { rendersMigration } from '../store/migrations/002_renders.ts';
import { OwnSchemaPostgresDialect } from '../store/pg-dialect.ts';
import type { Database } from '../store/schema.ts';
import SQLite from '../store/sqlite.ts';
import { changeCredits } from '../store/workspaces.ts';
import { WorkspaceService } from '../workspaces/service.ts';
import { CreditService, MAX_CREDIT_BALANCE, MAX_CREDIT_CHANGE } from './service.ts';

/**
 * Brings a fresh database to the schema of before the 64-bit credits (migrations 001 and 002) and
 * gives it a workspace `ws_old` with 2e9 credits, the most a 32-bit column could hold in round figures.
 */
async function oldDatabaseWithCredits(database: TestDatabase, name: 'sqlite' | 'postgres'): Promise<void> {
  if (database.databaseUrl && database.pgSchema) {
    const admin = new pg.Client({ connectionString: database.databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${database.pgSchema}"`);
    await admin.end();
  }
  const db = new Kysely<unknown>({
    dialect: database.databaseUrl
      ? new OwnSchemaPostgresDialect({
          pool: new pg.Pool({
            connectionString: database.databaseUrl,
            options: `-c search_path=${database.pgSchema}`,
          }),
        })
      : new SqliteDialect({ database: new SQLite(join(database.dataDir, 'platen.db')) }),
  });
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: async () => ({ '001_initial': initialMigration(name), '002_renders': rendersMigration }),
    },
    ...(database.pgSchema ? { migrationTableSchema: database.pgSchema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  const now = new Date().toISOString();
  const old = db as unknown as Kysely<Database>;
  await old
    .insertInto('workspaces')
    .values({
      id: 'ws_old',
      name: 'old',
      credit_balance: 2e9,
      suspended: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await old
    .insertInto('credit_ledger')
    .values({
      id: 'led_old',
      workspace_id: 'ws_old',
      delta: 2e9,
      balance_after: 2e9,
      reason: 'initial grant',
      actor: 'test',
      render_id: null,
      created_at: now,
    })
    .execute();
  await db.destroy();
}

/** The operator token's principal: what grants and withdrawals act as on the operator API. */
const operator: Principal = {
  workspaceId: '',
  scopes: new Set(),
  actor: { type: 'operator_token' },
  address: '127.0.0.1',
};

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `credits on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let store: Store;
      let credits: CreditService;
      let workspaces: WorkspaceService;

      beforeEach(async () => {
        database = testDatabase(backend.name);
        store = await database.open();
        credits = new CreditService(store, new AuditTrail(store));
        workspaces = new WorkspaceService(store, credits, new AuditTrail(store));
      });
      afterEach(async () => {
        await store.close();
        await database.destroy();
      });

      it('keeps balances past 32 bits exact: three grants of 1e9', async () => {
        const ws = await workspaces.create(operator, { name: 'big', credits: 0 });
        for (let i = 0; i < 3; i++) await credits.adjust(operator, ws.id, 1e9, 'grant');
        expect(await credits.balance(ws.id)).toBe(3_000_000_000);
        const ledger = await store.workspaces.ledger(ws.id);
        expect(ledger.map((e) => [e.delta, e.balanceAfter])).toEqual([
          [1e9, 1e9],
          [1e9, 2e9],
          [1e9, 3e9],
        ]);
        expect(await credits.adjust(operator, ws.id, -(3e9 - 1), 'x')).toBe(1);
      });

      it('upgrades an existing database to 64-bit credits, keeping balances and ledger', async () => {
        await store.close();
        await database.destroy();
        database = testDatabase(backend.name);
        await oldDatabaseWithCredits(database, backend.name);
        store = await database.open();
        credits = new CreditService(store, new AuditTrail(store));
        expect(await credits.adjust(operator, 'ws_old', 1e9, 'grant')).toBe(3e9);
        expect(await credits.balance('ws_old')).toBe(3e9);
        expect((await store.workspaces.ledger('ws_old')).map((e) => [e.delta, e.balanceAfter])).toEqual([
          [2e9, 2e9],
          [1e9, 3e9],
        ]);
      });

      it('grants up to the maximum balance and refuses a grant beyond it, changing nothing', async () => {
        const ws = await workspaces.create(operator, { name: 'cap', credits: 0 });
        // Near the cap in one step (no grant may move that much): the store's own debit-free path.
        await store.handle.db.transaction().execute((trx) =>
          changeCredits(trx, {
            workspaceId: ws.id,
            delta: MAX_CREDIT_BALANCE - 5,
            reason: 'x',
            actor: 't',
          }),
        );
        expect(await credits.adjust(operator, ws.id, 5, 'grant')).toBe(MAX_CREDIT_BALANCE);
        const ledgerBefore = await store.workspaces.ledger(ws.id);
        const refused = await credits.adjust(operator, ws.id, 1, 'grant').catch((e) => e);
        expect(refused).toMatchObject({
          code: 'VALIDATION_FAILED',
          details: [{ path: 'amount', message: expect.stringContaining(String(MAX_CREDIT_BALANCE)) }],
        });
        expect(await credits.balance(ws.id)).toBe(MAX_CREDIT_BALANCE);
        expect(await store.workspaces.ledger(ws.id)).toEqual(ledgerBefore);
        // Withdrawals still work at the cap.
        expect(await credits.adjust(operator, ws.id, -MAX_CREDIT_CHANGE, 'x')).toBe(
          MAX_CREDIT_BALANCE - MAX_CREDIT_CHANGE,
        );
      });

      it('lets exactly the grants that fit under the maximum through when many race', async () => {
        const ws = await workspaces.create(operator, { name: 'cap-race', credits: 0 });
        await store.handle.db.transaction().execute((trx) =>
          changeCredits(trx, {
            workspaceId: ws.id,
            delta: MAX_CREDIT_BALANCE - 7,
            reason: 'x',
            actor: 't',
          }),
        );
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, () => credits.adjust(operator, ws.id, 1, 'grant')),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
        for (const r of results)
          if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'VALIDATION_FAILED' });
        expect(await credits.balance(ws.id)).toBe(MAX_CREDIT_BALANCE);
        const ledger = await store.workspaces.ledger(ws.id);
        expect(ledger.at(-1)?.balanceAfter).toBe(MAX_CREDIT_BALANCE);
        expect(ledger.reduce((sum, e) => sum + e.delta, 0)).toBe(MAX_CREDIT_BALANCE);
      });

      it('refuses one grant or withdrawal over the per-change maximum', async () => {
        const ws = await workspaces.create(operator, { name: 'big', credits: MAX_CREDIT_CHANGE });
        for (const amount of [MAX_CREDIT_CHANGE + 1, -(MAX_CREDIT_CHANGE + 1), 0.5]) {
          await expect(credits.adjust(operator, ws.id, amount, 'x')).rejects.toMatchObject({
            code: 'VALIDATION_FAILED',
            details: [{ path: 'amount' }],
          });
        }
        await expect(
          workspaces.create(operator, { name: 'x', credits: MAX_CREDIT_CHANGE + 1 }),
        ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'credits' }] });
        expect(await credits.adjust(operator, ws.id, MAX_CREDIT_CHANGE, 'x')).toBe(2 * MAX_CREDIT_CHANGE);
      });

      it('never refuses a refund, even at the maximum balance', async () => {
        const ws = await workspaces.create(operator, { name: 'refund', credits: 0 });
        await store.handle.db
          .transaction()
          .execute((trx) =>
            changeCredits(trx, { workspaceId: ws.id, delta: MAX_CREDIT_BALANCE, reason: 'x', actor: 't' }),
          );
        const begun = await store.renders.begin({
          workspaceId: ws.id,
          templateId: 'tpl_x',
          identityHash: 'h',
          format: 'png',
          fileCount: 1,
          actor: 'test',
          instanceId: 'ins_a',
        });
        if (begun.kind !== 'claimed') throw new Error('expected a claim');
        await credits.adjust(operator, ws.id, 1, 'grant');
        expect(await store.renders.fail(begun.renderId, { reason: 'x' })).toBe(true);
        expect(await credits.balance(ws.id)).toBe(MAX_CREDIT_BALANCE + 1);
      });
    },
  );
}
