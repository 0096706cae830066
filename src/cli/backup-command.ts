/**
 * `platen backup --out DIR` and `platen restore --from DIR`: the whole deployment (database and
 * files) to a folder and back, configured by the same variables as the service (docs/operations.md).
 */
import { resolve } from 'node:path';
import { BackupError, backup, restore } from '../backup/index.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { DataDirInUse } from '../store/data-dir-lock.ts';
import { option, parseArgs } from './args.ts';

const help = `platen backup --out DIR     copy the database and every stored file into DIR (while the service runs)
platen restore --from DIR   put a backup in place (service stopped; empty database and data directory)
Both read the service's configuration: PLATEN_DATA_DIR, DATABASE_URL, PLATEN_S3_*.`;

export async function runBackupCommand(command: 'backup' | 'restore', argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const folder = option(args, command === 'backup' ? 'out' : 'from');
  if (!folder || args.options.has('help')) {
    process.stdout.write(`${help}\n`);
    return folder ? 0 : 2;
  }
  try {
    const config = loadConfig();
    const started = Date.now();
    const manifest =
      command === 'backup' ? await backup(config, resolve(folder)) : await restore(config, resolve(folder));
    const { files } = manifest;
    process.stdout.write(
      `${command === 'backup' ? 'backed up' : 'restored'} the ${manifest.database} database and ${files.count} files ` +
        `(${files.bytes} bytes) ${command === 'backup' ? 'into' : 'from'} ${resolve(folder)} in ${Date.now() - started} ms\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError || error instanceof DataDirInUse) {
      process.stderr.write(`platen ${command}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
