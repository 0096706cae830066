/**
 * The files module's public face: the FileStore contract, both backends, and the factory that picks
 * one from configuration (S3 when `PLATEN_S3_*` is set, else a folder under the data directory).
 */
import { join } from 'node:path';
import { FolderFileStore } from './folder.ts';
import { S3FileStore } from './s3.ts';
import type { FileStore, FileStoreConfig } from './types.ts';

export { FolderFileStore } from './folder.ts';
export { assertValidKey } from './keys.ts';
export { S3FileStore } from './s3.ts';
export type { FileStore, FileStoreConfig, S3FileStoreOptions, StoredFileInfo } from './types.ts';

/** The folder store's root inside the data directory; the embedded database lives beside it. */
export function folderRoot(dataDir: string): string {
  return join(dataDir, 'files');
}

export function createFileStore(config: FileStoreConfig): FileStore {
  if (config.s3) return new S3FileStore(config.s3);
  return new FolderFileStore(folderRoot(config.dataDir));
}
