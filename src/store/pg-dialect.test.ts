/**
 * The introspector the migrator uses on PostgreSQL (src/store/pg-dialect.ts): it describes this
 * schema's tables as Kysely's own does, and it neither sees nor waits for anyone else's schema.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgUrl } from '../../test/harness/backends.ts';
import { randomBase62 } from '../core/ids.ts';
import { OwnSchemaPostgresDialect } from './pg-dialect.ts';

const run = randomBase62(8).toLowerCase();
const own = `t_introspect_${run}`;
const other = `t_introspect_other_${run}`;

describe.skipIf(!pgUrl)(
  `the PostgreSQL introspector${pgUrl ? '' : ' (skipped: PLATEN_TEST_DATABASE_URL not set)'}`,
  () => {
    let admin: pg.Client;
    let ours: Kysely<unknown>;
    let kyselys: Kysely<unknown>;
    const pool = () => new pg.Pool({ connectionString: pgUrl, max: 2, options: `-c search_path=${own}` });

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${own}`);
      await admin.query(`CREATE SCHEMA ${other}`);
      await admin.query(`
        CREATE TABLE ${own}.things (
          id serial PRIMARY KEY,
          code integer GENERATED ALWAYS AS IDENTITY,
          name text NOT NULL DEFAULT 'x',
          note varchar(20),
          dropped integer
        );
        ALTER TABLE ${own}.things DROP COLUMN dropped;
        COMMENT ON COLUMN ${own}.things.note IS 'said about the note';
        CREATE VIEW ${own}.named AS SELECT id, name FROM ${own}.things;
        CREATE TABLE ${own}.kysely_migration (name varchar(255) PRIMARY KEY);
        CREATE TABLE ${other}.elsewhere (id serial PRIMARY KEY);`);
      ours = new Kysely({ dialect: new OwnSchemaPostgresDialect({ pool: pool() }) });
      kyselys = new Kysely({ dialect: new PostgresDialect({ pool: pool() }) });
    });

    afterAll(async () => {
      await ours?.destroy();
      await kyselys?.destroy();
      await admin?.query(`DROP SCHEMA IF EXISTS ${own} CASCADE; DROP SCHEMA IF EXISTS ${other} CASCADE`);
      await admin?.end();
    });

    it("describes this schema's tables and views as Kysely's introspector does, and no other schema's", async () => {
      for (const withInternalKyselyTables of [false, true]) {
        const mine = await ours.introspection.getTables({ withInternalKyselyTables });
        const theirs = (await kyselys.introspection.getTables({ withInternalKyselyTables })).filter(
          (table) => table.schema === own,
        );
        expect(mine).toEqual(theirs);
        expect(mine.map((table) => table.name)).toEqual(
          withInternalKyselyTables ? ['kysely_migration', 'named', 'things'] : ['named', 'things'],
        );
      }
      const things = (await ours.introspection.getTables()).find((table) => table.name === 'things');
      expect(
        things?.columns.map((c) => [c.name, c.isAutoIncrementing, c.hasDefaultValue, c.isNullable]),
      ).toEqual([
        ['id', true, true, false],
        ['code', true, false, false],
        ['name', false, true, false],
        ['note', false, false, true],
      ]);
      expect(things?.columns.find((c) => c.name === 'note')?.comment).toBe('said about the note');
      expect((await ours.introspection.getSchemas()).map((s) => s.name)).toEqual(
        expect.arrayContaining([own, other, 'public']),
      );
    });

    it("answers when another schema is dropped after its snapshot was taken, where Kysely's fails with 3F000", async () => {
      // A statement reads the catalog as of its snapshot, but has_schema_privilege(name) and
      // pg_get_serial_sequence(name) look names up as of now. A repeatable-read transaction holds
      // the snapshot still, so the drop lands between the two as it does in a busy database.
      const readAfterDrop = (db: Kysely<unknown>, schema: string) =>
        db
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute(async (trx) => {
            await sql`select 1`.execute(trx);
            await admin.query(`DROP SCHEMA ${schema} CASCADE`);
            return trx.introspection.getTables({ withInternalKyselyTables: true });
          });
      await expect(readAfterDrop(kyselys, other)).rejects.toMatchObject({ code: '3F000' });

      await admin.query(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.elsewhere (id serial PRIMARY KEY)`);
      const tables = await readAfterDrop(ours, other);
      expect(tables.map((table) => table.name)).toEqual(['kysely_migration', 'named', 'things']);
    });
  },
);
