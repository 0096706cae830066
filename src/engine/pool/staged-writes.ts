/**
 * The files a render process writes into the staging folder for one render. Each is synced
 * before the render is answered: the service renames it into place and acknowledges the render
 * only after that, so an acknowledged render's bytes are on disk (as `FileStore.put` would have
 * them).
 *
 * An incremental render knows the bytes its file starts with (the header and the unchanged strips
 * above the first change) before it encodes the changed strips. `begin` writes those and syncs
 * them while the render goes on; `finish` writes the rest behind them and syncs again, which then
 * has only the rest to carry to the disk. A 2 MB PNG whose headline changed waited 7.6 ms for its
 * sync, 3.1 ms this way (docs/performance.md, "The file's first bytes synced early"). The final
 * sync follows the last write, so nothing is answered before all of it is on disk.
 */
import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';

interface Begun {
  path: string;
  handle: FileHandle;
  leading: Uint8Array;
}

/** Opens a new staged file, making the folder if someone removed it (or it was never made). */
async function openStaged(dir: string): Promise<{ path: string; handle: FileHandle }> {
  const path = join(dir, `${randomBytes(12).toString('hex')}.part`);
  try {
    return { path, handle: await open(path, 'wx') };
  } catch (error) {
    // The folder is made by the first render that writes into it, not before every one: a render
    // would wait for a trip through libuv's threads for nothing.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true });
    return { path, handle: await open(path, 'wx') };
  }
}

/** Writes all of `bytes` at `position` (a positional write may write less than it was given). */
async function writeAt(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/**
 * Fewer first bytes are not written early: a second sync costs a journal commit of its own, and
 * for a 300 KB JPEG's first 200 KB it bought nothing (1.9 + 6.6 ms against 2.1 + 6.3 ms).
 */
export const EARLY_MIN_BYTES = 512 * 1024;

const startsWith = (bytes: Uint8Array, leading: Uint8Array): boolean =>
  bytes.length >= leading.length &&
  Buffer.from(bytes.buffer, bytes.byteOffset, leading.length).equals(leading);

export class StagedWrites {
  private readonly begun = new Map<number, Promise<Begun>>();
  /** Files finished so far: a render failing at a later file removes them too. */
  private readonly finished: string[] = [];

  constructor(private readonly dir: string) {}

  /**
   * File `file` will start with `leading`: written and synced now, while the render goes on (from
   * EARLY_MIN_BYTES on; fewer are written with the rest).
   */
  begin(file: number, leading: Uint8Array): void {
    if (this.begun.has(file) || leading.length < EARLY_MIN_BYTES) return;
    const begun = openStaged(this.dir).then(async ({ path, handle }) => {
      try {
        await writeAt(handle, leading, 0);
        await handle.datasync();
        return { path, handle, leading };
      } catch (error) {
        await handle.close().catch(() => {});
        await rm(path, { force: true }).catch(() => {});
        throw error;
      }
    });
    // A failure is met again, and handled, by finish or discard.
    begun.catch(() => {});
    this.begun.set(file, begun);
  }

  /** Writes file `file` whole as `bytes` (behind what `begin` wrote) and syncs it; its path. */
  async finish(file: number, bytes: Uint8Array): Promise<string> {
    const begun = await this.take(file);
    const { path, handle } = begun ?? (await openStaged(this.dir));
    try {
      // Bytes that do not start as told are written whole (over what was written early).
      const from = begun && startsWith(bytes, begun.leading) ? begun.leading.length : 0;
      await writeAt(handle, bytes.subarray(from), from);
      if (begun && from === 0 && bytes.length < begun.leading.length) await handle.truncate(bytes.length);
      await handle.datasync();
      await handle.close();
      this.finished.push(path);
      return path;
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(path, { force: true }).catch(() => {});
      throw error;
    }
  }

  /**
   * A render that failed: every file it staged, finished or begun, is closed and removed. Never
   * throws: what it cannot remove the staging sweep removes later (`sweepStaged`), and the
   * render's own error is the one to answer.
   */
  async discard(): Promise<void> {
    const paths = this.finished.splice(0);
    for (const file of [...this.begun.keys()]) {
      const begun = await this.take(file);
      if (!begun) continue;
      await begun.handle.close().catch(() => {});
      paths.push(begun.path);
    }
    await Promise.allSettled(paths.map((path) => rm(path, { force: true })));
  }

  /** The early write of `file`, if one was begun and succeeded (a failed one removed its file). */
  private async take(file: number): Promise<Begun | null> {
    const begun = this.begun.get(file);
    this.begun.delete(file);
    return begun ? begun.catch(() => null) : null;
  }
}
