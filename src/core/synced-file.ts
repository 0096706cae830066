/**
 * A new file whose bytes are on disk before anyone is told about it: created exclusively (never
 * over another), written, synced (fdatasync) and closed. The caller renames it into place; a
 * power loss before the sync could otherwise leave the new name pointing at no data. A failure
 * removes the partial file.
 */
import { open, rm } from 'node:fs/promises';

export async function writeSyncedFile(path: string, contents: Uint8Array | string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    try {
      await handle.writeFile(contents);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}
