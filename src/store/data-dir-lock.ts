/**
 * One process per embedded data directory. SQLite deployments are a single instance: a second
 * process on the same folder (an accidental double start) would take the first one's in-flight
 * renders for orphans. The lock is a pid file; a file left by a dead process is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`PLATEN_DATA_DIR ${dataDir} is in use by another Platen process (pid ${pid}); stop it first`);
    this.name = 'DataDirInUse';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the folder for this process; returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'platen.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isFinite(holder) && holder !== process.pid && alive(holder))
        throw new DataDirInUse(dataDir, holder);
      unlinkSync(path);
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
