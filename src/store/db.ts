/**
 * Opens the database: embedded SQLite (WAL) under the data directory by default, PostgreSQL when a
 * URL is given. Runs the one set of migrations on open, so a start always sees the current schema.
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  type PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
  sql,
  type Transaction,
} from 'kysely';
import { initialMigration } from './migrations/001_initial.ts';
import { rendersMigration } from './migrations/002_renders.ts';
import { creditsBigintMigration } from './migrations/003_credits_bigint.ts';
import { fileKeyIndexesMigration } from './migrations/004_file_key_indexes.ts';
import { embedsWebhooksMigration } from './migrations/005_embeds_webhooks.ts';
import { oauthMigration } from './migrations/006_oauth.ts';
import { thumbnailRevisionMigration } from './migrations/007_thumbnail_revision.ts';
import { urlSigningSecretsMigration } from './migrations/008_url_signing_secrets.ts';
import { renderQueueMigration } from './migrations/009_render_queue.ts';
import { batchesMigration } from './migrations/010_batches.ts';
import { consoleMigration } from './migrations/011_console.ts';
import { peopleAuditMigration } from './migrations/012_people_audit.ts';
import { holdsAndPreviousKeysMigration } from './migrations/013_holds_and_previous_keys.ts';
import { mediaAssetsMigration } from './migrations/014_media_assets.ts';
import { templateVersionsMigration } from './migrations/015_template_versions.ts';
import { embedPublishedOnlyMigration } from './migrations/016_embed_published_only.ts';
import { OwnSchemaPostgresDialect } from './pg-dialect.ts';
import type { Database } from './schema.ts';
import SQLite, { SQLITE_DRIVER } from './sqlite.ts';

export type DialectName = 'sqlite' | 'postgres';

/** The embedded database's file name inside the data directory (backups copy it). */
export const SQLITE_FILE = 'platen.db';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; absent means SQLite under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate each file in its own). */
  pgSchema?: string;
}

function migrationsFor(dialect: DialectName): MigrationProvider {
  const all: Record<string, Migration> = {
    '001_initial': initialMigration(dialect),
    '002_renders': rendersMigration,
    '003_credits_bigint': creditsBigintMigration(dialect),
    '004_file_key_indexes': fileKeyIndexesMigration,
    '005_embeds_webhooks': embedsWebhooksMigration(dialect),
    '006_oauth': oauthMigration,
    '007_thumbnail_revision': thumbnailRevisionMigration,
    '008_url_signing_secrets': urlSigningSecretsMigration,
    '009_render_queue': renderQueueMigration,
    '010_batches': batchesMigration,
    '011_console': consoleMigration,
    '012_people_audit': peopleAuditMigration,
    '013_holds_and_previous_keys': holdsAndPreviousKeysMigration,
    '014_media_assets': mediaAssetsMigration,
    '015_template_versions': templateVersionsMigration,
    '016_embed_published_only': embedPublishedOnlyMigration,
  };
  return { getMigrations: async () => all };
}

/**
 * A statement after which a cached one may read other columns: a schema change, or the rollback of
 * one (anywhere in the text, so a leading comment hides nothing; a false match only costs new
 * preparations).
 */
const SCHEMA_CHANGE = /\b(create|alter|drop|rollback)\b/i;

/**
 * better-sqlite3 with a cache of prepared statements: Kysely prepares every query anew, which
 * was the largest single cost of a replayed render. Statements are used synchronously, one at a
 * time, so sharing them is safe. A schema change (the migrations) empties the cache, so that a
 * `select *` prepared again names the columns the table has now.
 */
function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  const rowsOf = SQLITE_DRIVER === 'better-sqlite3' ? withRowsBuiltInJs : asKyselyStatement;
  return {
    close: () => database.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached) return cached;
      const statement = rowsOf(database.prepare(sql));
      // Never cached itself, so that it is seen each time it runs.
      if (SCHEMA_CHANGE.test(sql)) {
        cache.clear();
        return statement;
      }
      if (cache.size >= 1000) cache.delete(cache.keys().next().value ?? '');
      cache.set(sql, statement);
      return statement;
    },
  };
}

const asKyselyStatement = (statement: BetterSqlite3.Statement) => statement as unknown as SqliteStatement;

/**
 * better-sqlite3 12 (Node 20) sets each column of an object row through V8's embedder API (a new
 * key string and a map transition per column, per row): a fifth of a replay's instructions
 * (docs/performance.md). So its reading statements answer arrays, made objects here. Release 13
 * (Node 22 and newer) already builds its rows in JS and is left alone. The same objects: columns in
 * order, a later column of the same name winning; the names are read again should a row's width
 * change under a cached statement.
 */
function withRowsBuiltInJs(statement: BetterSqlite3.Statement): SqliteStatement {
  if (!statement.reader) return asKyselyStatement(statement);
  const columnNames = () => statement.columns().map((column) => column.name);
  let names = columnNames();
  const raw = statement.raw(true);
  const toObject = (values: unknown[]) => {
    if (values.length !== names.length) names = columnNames();
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
    return row;
  };
  return {
    reader: true,
    all: (parameters) => (raw.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      for (const values of raw.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(values);
    },
  };
}

/** Every commit waits for the disk, unless it is run by `transactionWithoutSync`. */
const SQLITE_SYNCHRONOUS = 'FULL';

/**
 * A transaction whose commit does not wait for the disk: it may be lost by a power loss, whole
 * (never in part), until any later commit that does wait, because that one syncs the log up to
 * and including it (SQLite's WAL file; PostgreSQL's WAL). Only for writes that nobody has been
 * told about yet: a render's claim and charge, which its recorded result (a waiting commit) always
 * follows before the render is answered. Saves one disk sync (1-2 ms) per fresh render.
 */
export function transactionWithoutSync<T>(
  db: Kysely<Database>,
  dialect: DialectName,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (dialect === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return work(trx);
    });
  }
  // One connection held throughout, so no other transaction can commit while the setting is off.
  return db.connection().execute(async (connection) => {
    await sql.raw('pragma synchronous = NORMAL').execute(connection);
    try {
      return await connection.transaction().execute(work);
    } finally {
      await sql.raw(`pragma synchronous = ${SQLITE_SYNCHRONOUS}`).execute(connection);
    }
  });
}

function sqliteDialect(dataDir: string): SqliteDialect {
  mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(join(dataDir, SQLITE_FILE));
  database.pragma('journal_mode = WAL');
  // FULL: WAL with NORMAL may lose the last commits (an acknowledged render and its charge) on a
  // power loss; FULL syncs the WAL at every commit. Measured: about +0.4 ms per fresh render (two
  // commits), under 1% of its latency; replays write nothing and pay nothing.
  database.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return new SqliteDialect({ database: withStatementCache(database) });
}

async function postgresDialect(url: string, schema?: string): Promise<PostgresDialect> {
  // Imported here, once a PostgreSQL URL is configured: the embedded default never loads pg, which
  // is a noticeable part of the start (docs/performance.md).
  const { default: pg } = await import('pg');
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '')}"`);
    } finally {
      await admin.end();
    }
  }
  // int8 stays a number: counts, and credits, which the store bounds far below 2^53. A value past
  // that would come back inexact, so it fails loudly instead.
  pg.types.setTypeParser(20, (v) => {
    const n = Number.parseInt(v, 10);
    if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${v} is beyond the exact range of a number`);
    return n;
  });
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return new OwnSchemaPostgresDialect({ pool });
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const dialect: DialectName = options.databaseUrl ? 'postgres' : 'sqlite';
  const db = new Kysely<Database>({
    dialect: options.databaseUrl
      ? await postgresDialect(options.databaseUrl, options.pgSchema)
      : sqliteDialect(options.dataDir),
  });
  await migrate(db, dialect);
  return { db, dialect, close: () => db.destroy() };
}

async function migrate(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: name ours, so
  // deployments (and test runs) in other schemas of the same database cannot confuse it (and the
  // introspector reads only this schema's catalog: src/store/pg-dialect.ts).
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: migrationsFor(dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
}
