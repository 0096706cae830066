/**
 * The files half of a backup: every stored file (folder or S3, through the FileStore contract) is
 * copied under `files/` of the backup with a manifest line (key, content type, size, SHA-256), so a
 * restore can verify each file and put it into any backend, the same or another (folder → S3).
 * Stored files are immutable (a key is written once), so copying while the service runs is safe.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FileStore } from '../files/index.ts';
import { BackupError } from './database.ts';

export const FILES_DIR = 'files';
export const FILES_MANIFEST = 'files.jsonl';

interface ManifestLine {
  key: string;
  contentType: string;
  byteSize: number;
  sha256: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Copies every stored file into `dest`; answers how many and their bytes. */
export async function backupFiles(files: FileStore, dest: string): Promise<{ count: number; bytes: number }> {
  const manifest = createWriteStream(join(dest, FILES_MANIFEST));
  let count = 0;
  let bytes = 0;
  try {
    for await (const listed of files.list('')) {
      const file = await files.get(listed.key);
      if (!file) continue; // deleted since it was listed (retention, a replaced thumbnail)
      const target = join(dest, FILES_DIR, listed.key);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.bytes);
      const line: ManifestLine = {
        key: listed.key,
        contentType: file.contentType,
        byteSize: file.bytes.length,
        sha256: sha256(file.bytes),
      };
      if (!manifest.write(`${JSON.stringify(line)}\n`))
        await new Promise<void>((resolve) => manifest.once('drain', () => resolve()));
      count++;
      bytes += file.bytes.length;
    }
  } finally {
    await new Promise<void>((resolve, reject) =>
      manifest.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  return { count, bytes };
}

/** Puts every backed-up file into `files`, each checked against its manifest line first. */
export async function restoreFiles(
  source: string,
  files: FileStore,
): Promise<{ count: number; bytes: number }> {
  const lines = createInterface({
    input: createReadStream(join(source, FILES_MANIFEST)),
    crlfDelay: Infinity,
  });
  let count = 0;
  let bytes = 0;
  for await (const text of lines) {
    if (!text.trim()) continue;
    const line = JSON.parse(text) as ManifestLine;
    const body = readFileSync(join(source, FILES_DIR, line.key));
    if (body.length !== line.byteSize || sha256(body) !== line.sha256)
      throw new BackupError(`${line.key} in the backup does not match its manifest (damaged backup)`);
    await files.put(line.key, body, line.contentType);
    count++;
    bytes += body.length;
  }
  return { count, bytes };
}
