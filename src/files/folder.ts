/**
 * FileStore over a local folder (the embedded default). Each file is written atomically (temp file
 * in the same directory, fsync, rename), so a reader sees the old bytes or the new, never a torn
 * file. The content type lives in a hidden sidecar `.<name>.meta.json` beside the file, unless the
 * name implies it (a render's `.png`); keys can't start a segment with a dot, so no key collides
 * with a sidecar, a temp file or the staging folder render processes write into (`adopt`).
 */
import { randomBytes } from 'node:crypto';
import {
  mkdir,
  open,
  opendir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { writeSyncedFile } from '../core/synced-file.ts';
import { assertValidKey, assertValidPrefix } from './keys.ts';
import type { ByteRange, FileStore, ListedFile, StoredFileInfo } from './types.ts';

const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

interface Paths {
  data: string;
  meta: string;
}

/**
 * Absent-file errors: ENOTDIR too, since `a/b` is absent when `a` is a file, and EISDIR, since `a`
 * is absent (only a prefix of other keys) when `a/b` exists.
 */
function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

export class FolderFileStore implements FileStore {
  readonly kind = 'folder' as const;
  private readonly root: string;

  /** A dot-name: never a key, never listed, never swept as an orphan key. */
  readonly stagingDir: string;

  constructor(rootDir: string) {
    this.root = resolve(rootDir);
    // Created by whoever writes into it first (a render process), not here: no I/O at construction.
    this.stagingDir = join(this.root, '.staging');
  }

  private paths(key: string): Paths {
    assertValidKey(key);
    const data = join(this.root, ...key.split('/'));
    return { data, meta: join(dirname(data), `.${basename(data)}.meta.json`) };
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<StoredFileInfo> {
    const { data, meta } = this.paths(key);
    const created = await mkdir(dirname(data), { recursive: true });
    // Both written and synced side by side (one sync's wait, not two).
    const written = await Promise.allSettled([
      writeSidecar(meta, data, contentType),
      writeSynced(data, bytes),
    ]);
    const temps = written.flatMap((result) =>
      result.status === 'fulfilled' && result.value ? [result.value] : [],
    );
    try {
      for (const result of written) if (result.status === 'rejected') throw result.reason;
      const [sidecar, file] = written.map((result) => (result.status === 'fulfilled' ? result.value : null));
      await placeSidecar(sidecar ?? null, meta);
      await rename(file as string, data);
    } catch (error) {
      await Promise.all(temps.map((temp) => rm(temp, { force: true })));
      throw error;
    }
    await syncDirectories(dirname(data), created);
    return { key, byteSize: bytes.byteLength, contentType };
  }

  async adopt(key: string, stagedPath: string, contentType: string): Promise<StoredFileInfo> {
    let renamed = false;
    try {
      if (dirname(resolve(stagedPath)) !== this.stagingDir)
        throw new Error(`not a staged file of this store: ${basename(stagedPath)}`);
      const { data, meta } = this.paths(key);
      // One after the other: a staged file that is gone must not leave new folders behind, whose
      // entries in their parents no later call would sync (it would not have created them).
      const { size } = await stat(stagedPath);
      const created = await mkdir(dirname(data), { recursive: true });
      const sidecar = await writeSidecar(meta, data, contentType);
      try {
        await placeSidecar(sidecar, meta);
        await rename(stagedPath, data);
        renamed = true;
      } catch (error) {
        if (sidecar) await rm(sidecar, { force: true });
        throw error;
      }
      await syncDirectories(dirname(data), created);
      return { key, byteSize: size, contentType };
    } finally {
      // Renamed, it has left the staging folder; otherwise it is removed here.
      if (!renamed) await rm(stagedPath, { force: true });
    }
  }

  async sweepStaged(before: Date): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.stagingDir).catch(() => [] as string[])) {
      const path = join(this.stagingDir, name);
      try {
        if ((await stat(path)).mtime >= before) continue;
        await rm(path, { force: true });
        removed++;
      } catch (error) {
        if (!isAbsent(error)) throw error; // adopted meanwhile
      }
    }
    return removed;
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string; byteSize: number } | null> {
    const { data, meta } = this.paths(key);
    let bytes: Buffer;
    try {
      bytes = await readFile(data);
    } catch (error) {
      if (isAbsent(error)) return null;
      throw error;
    }
    return { bytes, contentType: await readContentType(meta, data), byteSize: bytes.byteLength };
  }

  async getStream(
    key: string,
    range?: ByteRange,
  ): Promise<{ stream: NodeJS.ReadableStream; contentType: string; byteSize: number } | null> {
    const { data, meta } = this.paths(key);
    // Open first and size the open handle: a concurrent overwrite renames a new inode into place,
    // so the stream and its byteSize always describe the same bytes.
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(data, 'r');
    } catch (error) {
      if (isAbsent(error)) return null;
      throw error;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      const contentType = await readContentType(meta, data);
      if (range && range.start >= info.size) {
        await handle.close();
        return { stream: Readable.from([]), contentType, byteSize: info.size };
      }
      // The stream reads from `start` and stops at `end`: nothing outside the range is read.
      const bounds = range && { start: range.start, end: Math.min(range.end, info.size - 1) };
      return { stream: handle.createReadStream(bounds), contentType, byteSize: info.size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async head(key: string): Promise<StoredFileInfo | null> {
    const { data, meta } = this.paths(key);
    try {
      const info = await stat(data);
      if (!info.isFile()) return null;
      return { key, byteSize: info.size, contentType: await readContentType(meta, data) };
    } catch (error) {
      if (isAbsent(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { data, meta } = this.paths(key);
    await rm(data, { force: true });
    await rm(meta, { force: true });
  }

  async *list(prefix: string): AsyncIterable<ListedFile> {
    assertValidPrefix(prefix);
    // Walk from the deepest folder the prefix names in full; filter on the rest.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    for await (const file of this.walk(folder)) if (file.key.startsWith(prefix)) yield file;
  }

  /** Files under `folder` (a key prefix without trailing slash), skipping dot-names: sidecars, temp files. */
  private async *walk(folder: string): AsyncGenerator<ListedFile> {
    let dir: Awaited<ReturnType<typeof opendir>>;
    try {
      // opendir streams entries: a folder of a million renders is never held in memory at once.
      dir = await opendir(folder ? join(this.root, ...folder.split('/')) : this.root);
    } catch (error) {
      if (isAbsent(error)) return;
      throw error;
    }
    for await (const entry of dir) {
      if (entry.name.startsWith('.')) continue;
      const key = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        yield* this.walk(key);
      } else if (entry.isFile()) {
        try {
          const info = await stat(join(this.root, ...key.split('/')));
          yield { key, lastModified: info.mtime };
        } catch (error) {
          if (!isAbsent(error)) throw error; // deleted meanwhile
        }
      }
    }
  }

  async signedUrl(key: string, _expiresSeconds: number): Promise<string | null> {
    this.paths(key);
    return null;
  }

  async ready(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const probe = join(this.root, `.ready-${randomBytes(6).toString('hex')}`);
    await writeFile(probe, 'ok');
    await unlink(probe);
  }

  async close(): Promise<void> {}
}

/**
 * The content types file names imply. A file stored with the type its name implies has no sidecar:
 * one file, one disk sync and one rename fewer for every render (renders are named by their
 * format). A sidecar, when there is one, wins.
 */
const IMPLIED_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

const impliedType = (dataPath: string): string | undefined =>
  IMPLIED_TYPES[extname(dataPath).slice(1).toLowerCase()];

/** Writes the sidecar's temp file (synced) unless the name implies the type: its temp path, or null. */
async function writeSidecar(metaPath: string, dataPath: string, contentType: string): Promise<string | null> {
  if (impliedType(dataPath) === contentType) return null;
  return writeSynced(metaPath, JSON.stringify({ contentType }));
}

/**
 * Makes the renames into `dir` durable before the caller is answered (the render's record is
 * committed only after): a file's name is data of its directory, which the file's own sync does
 * not cover (POSIX fsync; ext4 happens to commit it with the next sync of anything, other file
 * systems do not). `created`, the first directory `mkdir` made, if any: each new directory's own
 * entry is in its parent, so those parents are synced too, up to the one that already existed.
 */
async function syncDirectories(dir: string, created: string | undefined): Promise<void> {
  const dirs = [dir];
  if (created !== undefined) {
    const top = dirname(created);
    let at = dir;
    while (at !== top && at !== dirname(at)) {
      at = dirname(at);
      dirs.push(at);
    }
  }
  await Promise.all(dirs.map(syncDirectory));
}

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Renames a written sidecar into place, or removes the one an earlier file at the key left (its
 * type would win over the name's). Done before the data file is renamed: whenever the data file
 * exists, the sidecar it needs does too (delete reverses the order).
 */
async function placeSidecar(temp: string | null, metaPath: string): Promise<void> {
  if (temp) await rename(temp, metaPath);
  else
    await unlink(metaPath).catch((error: unknown) => {
      if (!isAbsent(error)) throw error;
    });
}

async function readContentType(metaPath: string, dataPath: string): Promise<string> {
  const fallback = impliedType(dataPath) ?? FALLBACK_CONTENT_TYPE;
  try {
    const parsed: unknown = JSON.parse(await readFile(metaPath, 'utf8'));
    if (parsed && typeof parsed === 'object' && 'contentType' in parsed) {
      const { contentType } = parsed;
      if (typeof contentType === 'string' && contentType !== '') return contentType;
    }
    return fallback;
  } catch (error) {
    if (isAbsent(error) || error instanceof SyntaxError) return fallback;
    throw error;
  }
}

/** Writes a temp file beside `target` and syncs it; the caller renames it into place. */
async function writeSynced(target: string, contents: Uint8Array | string): Promise<string> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeSyncedFile(temp, contents);
  return temp;
}
