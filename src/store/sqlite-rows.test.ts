/**
 * The embedded database builds its rows in JS from better-sqlite3's arrays (db.ts): the objects
 * must be the ones better-sqlite3 itself makes, for reads, joins with repeated column names,
 * `returning`, streams and writes alike, and after a schema change (the migrations).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, SQLITE_FILE } from './db.ts';
import SQLite from './sqlite.ts';

describe('rows of the embedded database', () => {
  let dataDir: string;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'platen-rows-'));
    handle = await openDatabase({ dataDir });
    await sql`create table probe (id integer primary key, name text, blob_value blob, ratio real)`.execute(
      handle.db,
    );
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** What better-sqlite3 answers for the same statement on its own connection. */
  const direct = (statement: string, ...parameters: unknown[]) => {
    const db = new SQLite(join(dataDir, SQLITE_FILE), { readonly: true });
    try {
      return db.prepare(statement).all(...parameters);
    } finally {
      db.close();
    }
  };

  it('are the objects better-sqlite3 makes, repeated names and all', async () => {
    const inserted = await sql<Record<string, unknown>>`insert into probe (name, blob_value, ratio)
      values (${'a'}, ${Buffer.from([1, 2])}, ${0.5}), (${null}, ${null}, ${2}) returning *`.execute(
      handle.db,
    );
    expect(inserted.rows).toEqual(direct('select * from probe order by id'));
    const statement =
      'select p.id, p.name, q.id, q.ratio as name, p.blob_value from probe p join probe q on q.id = p.id where p.id >= ?';
    const joined = await sql<Record<string, unknown>>`${sql.raw(statement.replace('?', '1'))}`.execute(
      handle.db,
    );
    expect(joined.rows).toEqual(direct(statement, 1));
    expect(joined.rows[0]).toEqual({ id: 1, name: 0.5, blob_value: Buffer.from([1, 2]) });
    expect(Object.keys(joined.rows[0] ?? {})).toEqual(['id', 'name', 'blob_value']);
  });

  it('name the columns a table has after a schema change, for a statement read before it', async () => {
    await sql`create table altered (id integer primary key)`.execute(handle.db);
    await sql`insert into altered (id) values (1)`.execute(handle.db);
    const before = await sql`select * from altered`.execute(handle.db);
    await sql`alter table altered add column label text default 'x'`.execute(handle.db);
    const after = await sql`select * from altered`.execute(handle.db);
    expect([before.rows, after.rows]).toEqual([[{ id: 1 }], [{ id: 1, label: 'x' }]]);
    // A change rolled back: what was read inside it is not what is read after.
    const rolledBack = new Error('roll back');
    const inside = await handle.db
      .transaction()
      .execute(async (trx) => {
        await sql`alter table altered drop column label`.execute(trx);
        await sql`alter table altered add column other integer default 7`.execute(trx);
        expect((await sql`select * from altered`.execute(trx)).rows).toEqual([{ id: 1, other: 7 }]);
        throw rolledBack;
      })
      .catch((error: unknown) => error);
    expect(inside).toBe(rolledBack);
    expect((await sql`select * from altered`.execute(handle.db)).rows).toEqual([{ id: 1, label: 'x' }]);
  });

  it('stream as they read, and writes answer their counts', async () => {
    const streamed: unknown[] = [];
    for await (const row of handle.db
      .selectFrom('probe' as never)
      .selectAll()
      .stream())
      streamed.push(row);
    expect(streamed).toEqual(direct('select * from probe'));
    const updated = await sql`update probe set ratio = ratio + 1`.execute(handle.db);
    expect(updated.numAffectedRows).toBe(2n);
  });
});
