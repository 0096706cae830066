/**
 * The one conformance suite every FileStore backend must pass (folder and S3 run the same cases).
 * A harness opens store instances over one backing storage (root folder or bucket), so the suite
 * can also prove that files outlive the instance that wrote them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileStore, ListedFile } from './types.ts';

export interface FileStoreHarness {
  /** A new store instance over the same backing storage as every other call. */
  open(): Promise<FileStore>;
  /** Removes what the harness set up (temp dirs, servers). */
  dispose(): Promise<void>;
}

export const BAD_KEYS: readonly string[] = [
  '',
  '/etc/passwd',
  '../escape',
  'renders/../../escape',
  'renders/./x',
  '..',
  'renders\\ws\\x',
  'renders/ws\0/x',
  'renders//x',
  'renders/x/',
  'renders/.hidden',
  'with space',
  'quest?ion',
  'unicodé',
  'a'.repeat(513),
];

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export async function listAll(s: FileStore, prefix: string): Promise<ListedFile[]> {
  const files: ListedFile[] = [];
  for await (const file of s.list(prefix)) files.push(file);
  return files;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every byte value, then random bytes: catches text-mode or encoding mangling. */
function binarySample(): Buffer {
  return Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(1000)]);
}

export function describeFileStore(name: string, setup: () => Promise<FileStoreHarness>): void {
  describe(`FileStore conformance: ${name}`, () => {
    // Set up lazily inside each case rather than in beforeAll: a failing setup (e.g. the S3 server
    // not starting) then fails every case instead of reporting them as skipped.
    let started: Promise<{ harness: FileStoreHarness; shared: FileStore }> | undefined;
    const opened: FileStore[] = [];

    function start() {
      started ??= (async () => {
        const harness = await setup();
        return { harness, shared: await openWith(harness) };
      })();
      return started;
    }

    afterAll(async () => {
      if (!started) return;
      const { harness } = await started;
      for (const s of opened) await s.close();
      await harness.dispose();
    });

    async function openWith(harness: FileStoreHarness): Promise<FileStore> {
      const s = await harness.open();
      opened.push(s);
      return s;
    }
    const open = async () => openWith((await start()).harness);
    const store = async () => (await start()).shared;
    /** A fresh key per case keeps cases independent on the shared backing storage. */
    const key = (leaf = 'file.bin') => `conformance/${randomBytes(6).toString('hex')}/${leaf}`;

    it('is ready', async () => {
      const s = await store();
      await expect(s.ready()).resolves.toBeUndefined();
    });

    it('round-trips binary bytes and reports the stored info', async () => {
      const s = await store();
      const k = key('rnd_x.png');
      const bytes = binarySample();
      const info = await s.put(k, bytes, 'image/png');
      expect(info).toEqual({ key: k, byteSize: bytes.byteLength, contentType: 'image/png' });
      const got = await s.get(k);
      expect(got?.bytes.equals(bytes)).toBe(true);
      expect(got?.byteSize).toBe(bytes.byteLength);
      expect(got?.contentType).toBe('image/png');
    });

    it('keeps the content type, parameters included', async () => {
      const s = await store();
      const k = key('doc');
      await s.put(k, Buffer.from('%PDF-1.7'), 'application/pdf');
      const k2 = key('note.txt');
      await s.put(k2, Buffer.from('hi'), 'text/plain; charset=utf-8');
      expect((await s.get(k))?.contentType).toBe('application/pdf');
      expect((await s.head(k2))?.contentType).toBe('text/plain; charset=utf-8');
    });

    it('stores an empty file', async () => {
      const s = await store();
      const k = key('empty');
      await s.put(k, new Uint8Array(0), 'application/octet-stream');
      const got = await s.get(k);
      expect(got?.byteSize).toBe(0);
      expect(got?.bytes.byteLength).toBe(0);
      expect((await s.head(k))?.byteSize).toBe(0);
    });

    it('heads a file without reading it', async () => {
      const s = await store();
      const k = key('font.ttf');
      await s.put(k, randomBytes(4321), 'font/ttf');
      expect(await s.head(k)).toEqual({ key: k, byteSize: 4321, contentType: 'font/ttf' });
    });

    it('overwrites bytes, size and content type', async () => {
      const s = await store();
      const k = key();
      await s.put(k, randomBytes(2000), 'image/png');
      const next = randomBytes(10);
      await s.put(k, next, 'image/jpeg');
      const got = await s.get(k);
      expect(got?.bytes.equals(next)).toBe(true);
      expect(got?.contentType).toBe('image/jpeg');
      expect(await s.head(k)).toEqual({ key: k, byteSize: 10, contentType: 'image/jpeg' });
    });

    it('answers null for a missing key on get, getStream and head', async () => {
      const s = await store();
      const k = key();
      expect(await s.get(k)).toBeNull();
      expect(await s.getStream(k)).toBeNull();
      expect(await s.head(k)).toBeNull();
    });

    it('deletes, and deleting again or deleting a never-stored key succeeds', async () => {
      const s = await store();
      const k = key();
      await s.put(k, Buffer.from('x'), 'text/plain');
      await s.delete(k);
      expect(await s.get(k)).toBeNull();
      expect(await s.head(k)).toBeNull();
      await expect(s.delete(k)).resolves.toBeUndefined();
      await expect(s.delete(key('never'))).resolves.toBeUndefined();
    });

    it('keeps sibling keys independent', async () => {
      const s = await store();
      const base = key('').slice(0, -1);
      await s.put(`${base}/ws_a/ast_1`, Buffer.from('a'), 'text/plain');
      await s.put(`${base}/ws_b/ast_1`, Buffer.from('b'), 'text/plain');
      await s.delete(`${base}/ws_a/ast_1`);
      expect(await s.get(`${base}/ws_a/ast_1`)).toBeNull();
      expect((await s.get(`${base}/ws_b/ast_1`))?.bytes.toString()).toBe('b');
    });

    it('treats a key that is only a prefix of other keys as absent', async () => {
      const s = await store();
      const parent = key('parent');
      await s.put(`${parent}/child`, Buffer.from('c'), 'text/plain');
      expect(await s.get(parent)).toBeNull();
      expect(await s.getStream(parent)).toBeNull();
      expect(await s.head(parent)).toBeNull();
    });

    it('rejects bad keys on every method with a plain Error', async () => {
      const s = await store();
      for (const bad of BAD_KEYS) {
        await expect(s.put(bad, Buffer.from('x'), 'text/plain'), bad).rejects.toThrow(/Invalid file key/);
        await expect(s.get(bad), bad).rejects.toThrow(/Invalid file key/);
        await expect(s.getStream(bad), bad).rejects.toThrow(/Invalid file key/);
        await expect(s.getStream(bad, { start: 0, end: 0 }), bad).rejects.toThrow(/Invalid file key/);
        await expect(s.head(bad), bad).rejects.toThrow(/Invalid file key/);
        await expect(s.delete(bad), bad).rejects.toThrow(/Invalid file key/);
        await expect(s.signedUrl(bad, 60), bad).rejects.toThrow(/Invalid file key/);
      }
    });

    it('round-trips a 5 MB file through get and getStream, and a range from its middle', async () => {
      const s = await store();
      const k = key('big.bin');
      const bytes = randomBytes(5 * 1024 * 1024);
      await s.put(k, bytes, 'application/octet-stream');
      const got = await s.get(k);
      expect(got?.byteSize).toBe(bytes.byteLength);
      expect(sha256(got?.bytes ?? Buffer.alloc(0))).toBe(sha256(bytes));
      const streamed = await s.getStream(k);
      expect(streamed?.byteSize).toBe(bytes.byteLength);
      const read = streamed ? await readAll(streamed.stream) : Buffer.alloc(0);
      expect(sha256(read)).toBe(sha256(bytes));
      const start = 3 * 1024 * 1024 + 17;
      const part = await s.getStream(k, { start, end: start + 65_535 });
      const partRead = part ? await readAll(part.stream) : Buffer.alloc(0);
      expect(sha256(partRead)).toBe(sha256(bytes.subarray(start, start + 65_536)));
    }, 30_000);

    it('streams a file with its content type and size', async () => {
      const s = await store();
      const k = key('asset');
      const bytes = binarySample();
      await s.put(k, bytes, 'image/webp');
      const streamed = await s.getStream(k);
      expect(streamed?.contentType).toBe('image/webp');
      expect(streamed?.byteSize).toBe(bytes.byteLength);
      expect(streamed && (await readAll(streamed.stream)).equals(bytes)).toBe(true);
    });

    it('streams only the bytes of a range, with the size of the whole file', async () => {
      const s = await store();
      const k = key('clip.mp4');
      const bytes = binarySample();
      await s.put(k, bytes, 'video/mp4');
      const read = async (start: number, end: number) => {
        const part = await s.getStream(k, { start, end });
        expect(part?.byteSize).toBe(bytes.byteLength);
        expect(part?.contentType).toBe('video/mp4');
        return part ? readAll(part.stream) : null;
      };
      expect((await read(10, 109))?.equals(bytes.subarray(10, 110))).toBe(true);
      expect((await read(7, 7))?.equals(bytes.subarray(7, 8))).toBe(true);
      expect((await read(0, bytes.byteLength - 1))?.equals(bytes)).toBe(true);
      expect((await read(1200, bytes.byteLength - 1))?.equals(bytes.subarray(1200))).toBe(true);
    });

    it('stops a range whose end is past the file at its last byte', async () => {
      const s = await store();
      const k = key('tail.webm');
      const bytes = binarySample();
      await s.put(k, bytes, 'video/webm');
      const part = await s.getStream(k, { start: 1250, end: 1_000_000 });
      expect(part?.byteSize).toBe(bytes.byteLength);
      expect(part && (await readAll(part.stream)).equals(bytes.subarray(1250))).toBe(true);
    });

    it('streams nothing for a range that starts at or past the end, and null for a missing key', async () => {
      const s = await store();
      const k = key('short.mp3');
      await s.put(k, Buffer.from('0123456789'), 'audio/mpeg');
      for (const start of [10, 500]) {
        const part = await s.getStream(k, { start, end: start + 10 });
        expect(part?.byteSize, String(start)).toBe(10);
        expect(part?.contentType).toBe('audio/mpeg');
        expect(part && (await readAll(part.stream)).byteLength, String(start)).toBe(0);
      }
      expect(await s.getStream(key(), { start: 0, end: 9 })).toBeNull();
    });

    it('answers the type a name implies, and the type stored over it when they differ', async () => {
      const s = await store();
      const k = key('rnd_typed.png');
      await s.put(k, Buffer.from('a'), 'text/plain');
      expect((await s.get(k))?.contentType).toBe('text/plain');
      await s.put(k, Buffer.from('b'), 'image/png');
      expect((await s.get(k))?.contentType).toBe('image/png');
      expect((await s.head(k))?.contentType).toBe('image/png');
      await s.put(k, Buffer.from('c'), 'image/png; charset=binary');
      expect((await s.getStream(k))?.contentType).toBe('image/png; charset=binary');
      const staged = await stagedFile(s, Buffer.from('d'));
      await s.adopt(k, staged, 'image/png');
      expect((await s.get(k))?.contentType).toBe('image/png');
    });

    it('handles concurrent writes to different keys', async () => {
      const s = await store();
      const keys = Array.from({ length: 20 }, (_, i) => key(`c${i}`));
      await Promise.all(keys.map((k, i) => s.put(k, Buffer.from(`n${i}`), 'text/plain')));
      const got = await Promise.all(keys.map((k) => s.get(k)));
      expect(got.map((g) => g?.bytes.toString())).toEqual(keys.map((_, i) => `n${i}`));
    });

    it('keeps files across instances (a restart)', async () => {
      const s = await store();
      const k = key('persist.png');
      const bytes = binarySample();
      const writer = await open();
      await writer.put(k, bytes, 'image/png');
      await writer.close();
      const reader = await open();
      const got = await reader.get(k);
      expect(got?.bytes.equals(bytes)).toBe(true);
      expect(got?.contentType).toBe('image/png');
      await reader.delete(k);
      expect(await s.head(k)).toBeNull();
    });

    it('lists the files under a prefix with when they were written, and nothing else', async () => {
      const s = await store();
      const base = key('').slice(0, -1);
      const before = Date.now();
      const inside = [`${base}/a/x.png`, `${base}/a/y/z.pdf`, `${base}/b`];
      for (const k of inside) await s.put(k, Buffer.from(k), 'application/octet-stream');
      await s.put(`${base}-sibling/a`, Buffer.from('no'), 'text/plain');
      const after = Date.now();
      const listed = await listAll(s, `${base}/`);
      expect(listed.map((f) => f.key).sort()).toEqual([...inside].sort());
      for (const file of listed) {
        expect(file.lastModified).toBeInstanceOf(Date);
        // S3 keeps whole seconds: allow that much either side.
        expect(file.lastModified.getTime()).toBeGreaterThanOrEqual(before - 2000);
        expect(file.lastModified.getTime()).toBeLessThanOrEqual(after + 2000);
      }
      expect((await listAll(s, `${base}/a/`)).map((f) => f.key).sort()).toEqual(inside.slice(0, 2).sort());
    });

    it('lists by a prefix that ends inside a name, and forgets deleted files', async () => {
      const s = await store();
      const base = key('').slice(0, -1);
      for (const leaf of ['ab1', 'ab2', 'c']) await s.put(`${base}/${leaf}`, Buffer.from('x'), 'text/plain');
      expect((await listAll(s, `${base}/ab`)).map((f) => f.key).sort()).toEqual([
        `${base}/ab1`,
        `${base}/ab2`,
      ]);
      await s.delete(`${base}/ab1`);
      expect((await listAll(s, `${base}/ab`)).map((f) => f.key)).toEqual([`${base}/ab2`]);
      expect(await listAll(s, `${base}/nothing-here/`)).toEqual([]);
    });

    it('lists more files than one page holds', async () => {
      const s = await store();
      const base = key('').slice(0, -1);
      const keys = Array.from({ length: 25 }, (_, i) => `${base}/f${String(i).padStart(2, '0')}`);
      await Promise.all(keys.map((k) => s.put(k, Buffer.from('x'), 'text/plain')));
      const listed = (await listAll(s, `${base}/`)).map((f) => f.key);
      expect(listed.sort()).toEqual(keys);
    });

    it('rejects a bad prefix on list', async () => {
      const s = await store();
      for (const bad of ['../x', '/abs', 'a//b', 'a/.hidden/', '/']) {
        await expect(listAll(s, bad), bad).rejects.toThrow(/Invalid file key/);
      }
    });

    /** Where a render process would write: the store's staging folder, or a temp folder for S3. */
    async function stagedFile(s: FileStore, bytes: Uint8Array): Promise<string> {
      const dir = s.stagingDir ?? (await mkdtemp(join(tmpdir(), 'platen-staged-')));
      await mkdir(dir, { recursive: true });
      const path = join(dir, `${randomBytes(6).toString('hex')}.part`);
      await writeFile(path, bytes);
      return path;
    }

    it('adopts a staged file under a key, as put stores bytes, and removes the staged file', async () => {
      const s = await store();
      const k = key('rnd_staged.png');
      const bytes = binarySample();
      const path = await stagedFile(s, bytes);
      const info = await s.adopt(k, path, 'image/png');
      expect(info).toEqual({ key: k, byteSize: bytes.byteLength, contentType: 'image/png' });
      const got = await s.get(k);
      expect(got?.bytes.equals(bytes)).toBe(true);
      expect(got?.contentType).toBe('image/png');
      expect(existsSync(path)).toBe(false);
      // A staged file is never a listed key.
      expect((await listAll(s, '')).some((file) => file.key.includes('.part'))).toBe(false);
      // Another instance over the same storage sees it (it outlives the process that wrote it).
      expect((await (await open()).get(k))?.bytes.equals(bytes)).toBe(true);
    });

    it('removes the staged file when adopting fails, and refuses a bad key', async () => {
      const s = await store();
      const path = await stagedFile(s, Buffer.from('x'));
      await expect(s.adopt('../escape', path, 'text/plain')).rejects.toThrow(/Invalid file key/);
      expect(existsSync(path)).toBe(false);
    });

    it('sweeps staged files older than a moment and keeps newer ones', async () => {
      const s = await store();
      if (!s.stagingDir) {
        expect(await s.sweepStaged(new Date())).toBe(0);
        return;
      }
      const old = await stagedFile(s, Buffer.from('old'));
      const hourAgo = new Date(Date.now() - 3_600_000);
      await utimes(old, hourAgo, hourAgo);
      const fresh = await stagedFile(s, Buffer.from('fresh'));
      expect(await s.sweepStaged(new Date(Date.now() - 60_000))).toBeGreaterThanOrEqual(1);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(fresh)).toBe(true);
      await s.adopt(key(), fresh, 'text/plain');
    });

    it('signedUrl answers a URL string or null, never throws for a good key', async () => {
      const s = await store();
      const k = key();
      await s.put(k, Buffer.from('x'), 'text/plain');
      const url = await s.signedUrl(k, 60);
      expect(url === null || URL.canParse(url)).toBe(true);
    });
  });
}
