/**
 * Backup and restore of a whole deployment, from the same configuration the service reads
 * (`platen backup` / `platen restore`). A backup folder holds the database (a SQLite snapshot or a
 * pg_dump), every stored file with a manifest, and `backup.json` describing it. The database is
 * copied first and the files second (a restore puts files first and the database last): files are written before the records that name them and never
 * change, so every file the database snapshot references is in the backup (unless deleted in
 * between: retention, a replaced thumbnail); files newer than the snapshot are swept as orphans
 * after a restore. Backups run while the service serves; restores need it stopped.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../core/config.ts';
import { createFileStore } from '../files/index.ts';
import { lockDataDir } from '../store/data-dir-lock.ts';
import {
  assertPostgresEmpty,
  assertSqliteRestorable,
  BackupError,
  backupPostgres,
  backupSqlite,
  restorePostgres,
  restoreSqlite,
} from './database.ts';
import { backupFiles, restoreFiles } from './files.ts';

export { BackupError } from './database.ts';

export const BACKUP_MANIFEST = 'backup.json';

export interface BackupManifest {
  format: 1;
  createdAt: string;
  database: 'sqlite' | 'postgres';
  /** SQLite only: row counts of the main tables in the snapshot (checked after copying). */
  rows?: Record<string, number>;
  files: { backend: 'folder' | 's3'; count: number; bytes: number };
}

export async function backup(config: Config, dest: string): Promise<BackupManifest> {
  if (existsSync(dest) && readdirSync(dest).length > 0) throw new BackupError(`${dest} is not empty`);
  mkdirSync(dest, { recursive: true });
  const createdAt = new Date().toISOString();
  let rows: Record<string, number> | undefined;
  if (config.DATABASE_URL) await backupPostgres(config.DATABASE_URL, dest);
  else rows = await backupSqlite(config.dataDir, dest);
  const files = await createFileStore({ dataDir: config.dataDir, s3: config.s3 });
  try {
    const copied = await backupFiles(files, dest);
    const manifest: BackupManifest = {
      format: 1,
      createdAt,
      database: config.DATABASE_URL ? 'postgres' : 'sqlite',
      ...(rows ? { rows } : {}),
      files: { backend: files.kind, ...copied },
    };
    writeFileSync(join(dest, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    await files.close();
  }
}

export async function restore(config: Config, source: string): Promise<BackupManifest> {
  const manifestPath = join(source, BACKUP_MANIFEST);
  if (!existsSync(manifestPath))
    throw new BackupError(`${source} has no ${BACKUP_MANIFEST}: not a Platen backup`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BackupManifest;
  const target = config.DATABASE_URL ? 'postgres' : 'sqlite';
  if (manifest.database !== target)
    throw new BackupError(
      `the backup holds a ${manifest.database} database; this configuration uses ${target}`,
    );
  mkdirSync(config.dataDir, { recursive: true });
  // The service must be stopped: its lock on the data directory says whether it runs (SQLite).
  const unlock = target === 'sqlite' ? lockDataDir(config.dataDir) : () => {};
  const files = await createFileStore({ dataDir: config.dataDir, s3: config.s3 });
  try {
    // Checked first, files next, the database last: a restore that fails part-way leaves no
    // database naming files that are not there (files without records are swept as orphans).
    if (config.DATABASE_URL) await assertPostgresEmpty(config.DATABASE_URL);
    else assertSqliteRestorable(source, config.dataDir);
    await restoreFiles(source, files);
    if (config.DATABASE_URL) await restorePostgres(source, config.DATABASE_URL);
    else restoreSqlite(source, config.dataDir);
    return manifest;
  } finally {
    await files.close();
    unlock();
  }
}
