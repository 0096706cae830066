/**
 * The database half of a backup. SQLite: SQLite's online backup API (better-sqlite3 `backup()`)
 * from a read-only connection, so the service keeps reading and writing meanwhile (WAL: readers
 * never block the writer) and the copy is one consistent snapshot. PostgreSQL: `pg_dump` in its
 * custom format (one snapshot too), restored by `pg_restore`; both must be on PATH.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { SQLITE_FILE } from '../store/index.ts';
import SQLite from '../store/sqlite.ts';

export const SQLITE_BACKUP = 'platen.db';
export const PG_BACKUP = 'platen.pgdump';

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** Copies the live embedded database into `dest`; answers its row counts (checked after copying). */
export async function backupSqlite(dataDir: string, dest: string): Promise<Record<string, number>> {
  const source = join(dataDir, SQLITE_FILE);
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
  // Not read-only: a read-only connection cannot open a WAL database whose -shm file is absent
  // (the service stopped cleanly). Nothing is written through it.
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    // All pages in one step: a step restarts whenever the service writes between steps.
    await live.backup(join(dest, SQLITE_BACKUP), { progress: () => 1_000_000 });
  } finally {
    live.close();
  }
  return checkSqlite(join(dest, SQLITE_BACKUP));
}

/** Integrity check and row counts of a SQLite file; throws when the file is damaged. */
export function checkSqlite(file: string): Record<string, number> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new BackupError(`${file} fails its integrity check: ${String(integrity)}`);
    return countRows((sqlText) => db.prepare(sqlText).all() as Record<string, unknown>[]);
  } finally {
    db.close();
  }
}

const COUNTED = ['workspaces', 'templates', 'assets', 'renders', 'credit_ledger', 'webhook_outbox'] as const;

function countRows(query: (sqlText: string) => Record<string, unknown>[]): Record<string, number> {
  return Object.fromEntries(
    COUNTED.map((table) => [table, Number(query(`SELECT count(*) AS n FROM ${table}`)[0]?.n ?? 0)]),
  );
}

/** Refuses a data directory that has a database already, or a damaged backed-up file. */
export function assertSqliteRestorable(source: string, dataDir: string): void {
  const target = join(dataDir, SQLITE_FILE);
  if (existsSync(target))
    throw new BackupError(`${target} exists: restore into an empty data directory (move the old one aside)`);
  checkSqlite(join(source, SQLITE_BACKUP));
}

/** Puts a backed-up SQLite file in place (after assertSqliteRestorable). */
export function restoreSqlite(source: string, dataDir: string): void {
  copyFileSync(join(source, SQLITE_BACKUP), join(dataDir, SQLITE_FILE));
}

/** The schema a URL's `options=-c search_path=…` selects (tests and shared servers), if any. */
export function schemaOf(url: string): string | null {
  const options = new URL(url).searchParams.get('options') ?? '';
  return /search_path=([A-Za-z0-9_]+)/.exec(options)?.[1] ?? null;
}

export async function backupPostgres(url: string, dest: string): Promise<void> {
  const schema = schemaOf(url);
  await run(
    'pg_dump',
    [
      '--format=custom',
      '--no-owner',
      `--file=${join(dest, PG_BACKUP)}`,
      ...(schema ? [`--schema=${schema}`] : []),
      `--dbname=${withoutPassword(url)}`,
    ],
    passwordEnv(url),
  );
}

/** Refuses a database that has Platen tables already. */
export async function assertPostgresEmpty(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query<{ table: string | null }>(`SELECT to_regclass('workspaces') AS table`);
    if (found.rows[0]?.table)
      throw new BackupError('the database already has Platen tables: restore into an empty database');
  } finally {
    await client.end();
  }
}

/** Restores into an empty database (after assertPostgresEmpty). */
export async function restorePostgres(source: string, url: string): Promise<void> {
  await run(
    'pg_restore',
    ['--no-owner', '--exit-on-error', `--dbname=${withoutPassword(url)}`, join(source, PG_BACKUP)],
    passwordEnv(url),
  );
}

/**
 * The URL for libpq: without the password (it travels in the environment, not in arguments any
 * user can read in the process list), and with query values percent-encoded (libpq reads `+` as
 * itself, where URLSearchParams writes it for a space, as in `options=-c search_path=…`).
 */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  const query = [...parsed.searchParams].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  parsed.search = query.length ? `?${query.join('&')}` : '';
  return parsed.toString();
}

function passwordEnv(url: string): NodeJS.ProcessEnv {
  const password = decodeURIComponent(new URL(url).password);
  return password ? { ...process.env, PGPASSWORD: password } : process.env;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${command} is not on PATH (install the PostgreSQL client)`
            : error.message,
        ),
      ),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${command} exited ${code}: ${stderr.trim()}`)),
    );
  });
}
