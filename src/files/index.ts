/**
 * The files module's public face: the FileStore contract, both backends, and the factory that picks
 * one from configuration (S3 when `PLATEN_S3_*` is set, else a folder under the data directory).
 */
import { join } from 'node:path';
import { FolderFileStore } from './folder.ts';
import type { FileStore, FileStoreConfig } from './types.ts';

export { FolderFileStore } from './folder.ts';
export { assertValidKey } from './keys.ts';
// A type only: s3.ts (and the AWS SDK) is imported by createFileStore when S3 is configured.
export type { S3FileStore } from './s3.ts';
export type { FileStore, FileStoreConfig, S3FileStoreOptions, StoredFileInfo } from './types.ts';

/** The folder store's root inside the data directory; the embedded database lives beside it. */
export function folderRoot(dataDir: string): string {
  return join(dataDir, 'files');
}

export async function createFileStore(config: FileStoreConfig): Promise<FileStore> {
  if (config.s3) {
    // Imported only when configured: the AWS SDK is the largest import a folder store never uses
    // (docs/performance.md).
    const { S3FileStore } = await import('./s3.ts');
    return new S3FileStore(config.s3);
  }
  return new FolderFileStore(folderRoot(config.dataDir));
}
