/**
 * Credits become 64-bit on PostgreSQL: the workspace balance, the ledger's delta and balance_after,
 * and a render's charge were `integer` (32-bit), so a balance past 2^31 - 1 failed with 22003.
 * SQLite integers are already 64-bit: nothing to change there.
 */
import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

const creditColumns: ReadonlyArray<readonly [table: string, column: string]> = [
  ['workspaces', 'credit_balance'],
  ['credit_ledger', 'delta'],
  ['credit_ledger', 'balance_after'],
  ['renders', 'charged'],
];

export function creditsBigintMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      for (const [table, column] of creditColumns) {
        await db.schema
          .alterTable(table)
          .alterColumn(column, (c) => c.setDataType('bigint'))
          .execute();
      }
    },
  };
}
