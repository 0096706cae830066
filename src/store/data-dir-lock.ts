/**
 * One process per embedded data directory. SQLite deployments are a single instance: a second
 * process on the same folder (an accidental double start) would take the first one's in-flight
 * renders for orphans.
 *
 * The lock is an operating-system lock, not a pid file: an exclusive SQLite transaction on
 * `<dataDir>/platen.lock`, held for the life of the process. The kernel drops it when the process
 * ends in any way (kill -9 included), so a crash never blocks the next start, and a reused pid can
 * never pass for the holder. SQLite also sees the conflict between two connections of one process,
 * so a second lock in the same process is refused too. Nothing is read from the file.
 */

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import SQLite from './sqlite.ts';

export const LOCK_FILE = 'platen.lock';

export class DataDirInUse extends Error {
  constructor(readonly dataDir: string) {
    super(
      `PLATEN_DATA_DIR ${dataDir} is in use by another Platen process (it holds ${LOCK_FILE}); stop it first`,
    );
    this.name = 'DataDirInUse';
  }
}

/** Held locks, so a lock lives as long as the process even if its release function is dropped. */
const held = new Set<BetterSqlite3.Database>();

/** Takes the folder for this process (the folder must exist); returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  const lock = new SQLite(join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    // Fail at once when another connection holds the lock; never wait for it.
    lock.pragma('busy_timeout = 0');
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUse(dataDir);
    throw error;
  }
  held.add(lock);
  // Versions before this lock left a pid file behind; it means nothing now.
  rmSync(join(dataDir, 'platen.pid'), { force: true });
  return () => {
    if (!held.delete(lock)) return;
    lock.close();
  };
}
