/**
 * FileStore over a local folder (the embedded default). Each file is written atomically (temp file
 * in the same directory, fsync, rename), so a reader sees the old bytes or the new, never a torn
 * file. The content type lives in a hidden sidecar `.<name>.meta.json` beside the file; keys can't
 * start a segment with a dot, so no key collides with a sidecar or a temp file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, opendir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { assertValidKey, assertValidPrefix } from './keys.ts';
import type { FileStore, ListedFile, StoredFileInfo } from './types.ts';

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

  constructor(rootDir: string) {
    this.root = resolve(rootDir);
  }

  private paths(key: string): Paths {
    assertValidKey(key);
    const data = join(this.root, ...key.split('/'));
    return { data, meta: join(dirname(data), `.${basename(data)}.meta.json`) };
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<StoredFileInfo> {
    const { data, meta } = this.paths(key);
    await mkdir(dirname(data), { recursive: true });
    // Both written and synced side by side (one sync's wait, not two); then the sidecar is renamed
    // into place first: whenever the data file exists its sidecar does too (delete reverses the order).
    const written = await Promise.allSettled([
      writeSynced(meta, JSON.stringify({ contentType })),
      writeSynced(data, bytes),
    ]);
    const temps = written.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      for (const result of written) if (result.status === 'rejected') throw result.reason;
      await rename(temps[0] as string, meta);
      await rename(temps[1] as string, data);
    } catch (error) {
      await Promise.all(temps.map((temp) => rm(temp, { force: true })));
      throw error;
    }
    return { key, byteSize: bytes.byteLength, contentType };
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
    return { bytes, contentType: await readContentType(meta), byteSize: bytes.byteLength };
  }

  async getStream(
    key: string,
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
      const contentType = await readContentType(meta);
      return { stream: handle.createReadStream(), contentType, byteSize: info.size };
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
      return { key, byteSize: info.size, contentType: await readContentType(meta) };
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

async function readContentType(metaPath: string): Promise<string> {
  try {
    const parsed: unknown = JSON.parse(await readFile(metaPath, 'utf8'));
    if (parsed && typeof parsed === 'object' && 'contentType' in parsed) {
      const { contentType } = parsed;
      if (typeof contentType === 'string' && contentType !== '') return contentType;
    }
    return FALLBACK_CONTENT_TYPE;
  } catch (error) {
    if (isAbsent(error) || error instanceof SyntaxError) return FALLBACK_CONTENT_TYPE;
    throw error;
  }
}

/** Write to a unique temp file in the target's directory, flush it to disk, then rename over. */
/** Writes a temp file beside `target` and syncs it; the caller renames it into place. */
async function writeSynced(target: string, contents: Uint8Array | string): Promise<string> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx');
  try {
    try {
      await handle.writeFile(contents);
      // fsync before rename: otherwise a power loss can leave the new name pointing at no data.
      await handle.datasync();
    } finally {
      await handle.close();
    }
    return temp;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
