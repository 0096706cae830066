/**
 * Runs the FileStore conformance suite against the folder store (a temp dir) and against S3 served
 * by s3rver on loopback, plus the few behaviours only one backend has.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFileStore, type FileStoreHarness, listAll, readAll } from './conformance.ts';
import { createFileStore, FolderFileStore, folderRoot } from './index.ts';
import { S3FileStore, s3ClientConfig } from './s3.ts';
import type { S3FileStoreOptions } from './types.ts';

async function tempDir(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `platen-${label}-`));
}

async function folderHarness(): Promise<FileStoreHarness> {
  const root = await tempDir('files');
  return {
    open: async () => new FolderFileStore(root),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

interface S3Fixture {
  options: S3FileStoreOptions;
  dispose(): Promise<void>;
}

/** s3rver on 127.0.0.1, random port, temp directory, with a bucket made through the S3 API. */
async function startS3(prefix: string): Promise<S3Fixture> {
  const directory = await tempDir('s3rver');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const options: S3FileStoreOptions = {
    bucket: `platen-test-${Date.now()}`,
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    prefix,
  };
  const admin = new S3Client(s3ClientConfig(options));
  await admin.send(new CreateBucketCommand({ Bucket: options.bucket }));
  admin.destroy();
  return {
    options,
    dispose: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function s3Harness(): Promise<FileStoreHarness> {
  const fixture = await startS3('platen/');
  // A small list page makes the conformance suite's listing cases page through continuation tokens.
  return {
    open: async () => new S3FileStore(fixture.options, { listPageSize: 7 }),
    dispose: fixture.dispose,
  };
}

describeFileStore('folder', folderHarness);
describeFileStore('s3 (s3rver)', s3Harness);

describe('FolderFileStore specifics', () => {
  let root = '';
  beforeAll(async () => {
    root = await tempDir('folder');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('lays files out under the root by key, with hidden sidecars and no temp files left', async () => {
    const store = new FolderFileStore(root);
    await store.put('renders/ws_a/rnd_b.bin', Buffer.from('bin!'), 'application/x-thing');
    expect(await readFile(join(root, 'renders/ws_a/rnd_b.bin'), 'utf8')).toBe('bin!');
    expect((await readdir(join(root, 'renders/ws_a'))).sort()).toEqual(['.rnd_b.bin.meta.json', 'rnd_b.bin']);
  });

  it('writes no sidecar for the type a name implies, and removes an earlier one', async () => {
    const store = new FolderFileStore(root);
    await store.put('renders/ws_c/rnd_c.png', Buffer.from('text'), 'text/plain');
    expect(await readdir(join(root, 'renders/ws_c'))).toContain('.rnd_c.png.meta.json');
    await store.put('renders/ws_c/rnd_c.png', Buffer.from('png!'), 'image/png');
    expect((await readdir(join(root, 'renders/ws_c'))).sort()).toEqual(['rnd_c.png']);
    expect((await store.get('renders/ws_c/rnd_c.png'))?.contentType).toBe('image/png');
  });

  it('falls back to application/octet-stream when the sidecar is missing or corrupt', async () => {
    const store = new FolderFileStore(root);
    await writeFile(join(root, 'orphan'), 'x');
    expect((await store.head('orphan'))?.contentType).toBe('application/octet-stream');
    await writeFile(join(root, '.orphan.meta.json'), '{not json');
    expect((await store.get('orphan'))?.contentType).toBe('application/octet-stream');
  });

  it('lists neither sidecars nor temp files', async () => {
    const store = new FolderFileStore(root);
    await store.put('listing/ws_a/rnd_b.png', Buffer.from('png!'), 'image/png');
    await writeFile(join(root, 'listing/ws_a/.rnd_c.png.0a1b2c.tmp'), 'torn');
    expect((await listAll(store, 'listing/')).map((f) => f.key)).toEqual(['listing/ws_a/rnd_b.png']);
  });

  it('treats a key below an existing file as absent', async () => {
    const store = new FolderFileStore(root);
    await store.put('plainfile', Buffer.from('x'), 'text/plain');
    expect(await store.get('plainfile/child')).toBeNull();
    expect(await store.head('plainfile/child')).toBeNull();
  });

  it('never shows a reader a torn file while the key is overwritten', async () => {
    const store = new FolderFileStore(root);
    const size = 256 * 1024;
    const ones = Buffer.alloc(size, 1);
    const twos = Buffer.alloc(size, 2);
    await store.put('race', ones, 'application/octet-stream');
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 40; i++) await store.put('race', i % 2 ? ones : twos, 'application/octet-stream');
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const got = await store.get('race');
      expect(got?.byteSize).toBe(size);
      expect(got?.bytes.equals(ones) || got?.bytes.equals(twos)).toBe(true);
      reads++;
    }
    await writer;
    expect(reads).toBeGreaterThan(0);
  });

  it('ready() fails when the root cannot be created', async () => {
    await writeFile(join(root, 'blocker'), 'x');
    await expect(new FolderFileStore(join(root, 'blocker', 'sub')).ready()).rejects.toThrow();
  });
});

describe('S3FileStore specifics', () => {
  // Started lazily in each case (not beforeAll) so that a server that fails to start fails the cases.
  let fixture: Promise<S3Fixture> | undefined;
  afterAll(async () => (await fixture)?.dispose());
  async function options(): Promise<S3FileStoreOptions> {
    fixture ??= startS3('tenant-a');
    return (await fixture).options;
  }

  it('stores objects under the normalised prefix', async () => {
    const opts = await options();
    const store = new S3FileStore(opts);
    await store.put('assets/ws_a/ast_b', Buffer.from('svg'), 'image/svg+xml');
    const raw = new S3Client(s3ClientConfig(opts));
    const out = await raw.send(
      new GetObjectCommand({ Bucket: opts.bucket, Key: 'tenant-a/assets/ws_a/ast_b' }),
    );
    expect(await out.Body?.transformToString()).toBe('svg');
    expect(out.ContentType).toBe('image/svg+xml');
    raw.destroy();
    await store.close();
  });

  it('keeps stores with different prefixes apart', async () => {
    const a = new S3FileStore(await options());
    const b = new S3FileStore({ ...(await options()), prefix: 'tenant-b' });
    await a.put('shared/key', Buffer.from('a'), 'text/plain');
    expect(await b.get('shared/key')).toBeNull();
    expect(await listAll(b, 'shared/')).toEqual([]);
    expect((await listAll(a, 'shared/')).map((f) => f.key)).toEqual(['shared/key']);
    await a.close();
    await b.close();
  });

  it('refuses a ranged answer that is not the range asked rather than stream the wrong bytes', async () => {
    const store = new S3FileStore(await options());
    await store.put('ranges/ws_a/clip', Buffer.from('0123456789'), 'video/mp4');
    // s3rver reads `bytes=0-0` as the whole object (its `end || Infinity`), as a careless
    // S3-compatible server might: the store must notice the Content-Range does not match.
    await expect(store.getStream('ranges/ws_a/clip', { start: 0, end: 0 })).rejects.toThrow(
      /Content-Range bytes 0-9\/10 to bytes=0-0/,
    );
    const part = await store.getStream('ranges/ws_a/clip', { start: 1, end: 1 });
    expect(part && (await readAll(part.stream)).toString()).toBe('1');
    await store.close();
  });

  it('ready() fails for a bucket that does not exist', async () => {
    const store = new S3FileStore({ ...(await options()), bucket: 'no-such-bucket' });
    await expect(store.ready()).rejects.toThrow();
    await store.close();
  });

  it('rejects an invalid prefix at construction', async () => {
    const opts = await options();
    expect(() => new S3FileStore({ ...opts, prefix: '../up' })).toThrow(/Invalid file key/);
  });
});

describe('createFileStore', () => {
  it('picks the folder store under <dataDir>/files without S3 settings', async () => {
    const dataDir = await tempDir('data');
    const store = await createFileStore({ dataDir, s3: null });
    expect(store.kind).toBe('folder');
    await store.put('renders/ws_a/rnd_b.pdf', Buffer.from('%PDF'), 'application/pdf');
    expect(await readFile(join(folderRoot(dataDir), 'renders/ws_a/rnd_b.pdf'), 'utf8')).toBe('%PDF');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('picks the S3 store when S3 is configured', async () => {
    const store = await createFileStore({
      dataDir: '/unused',
      s3: { bucket: 'b', region: 'us-east-1', forcePathStyle: true, prefix: '' },
    });
    expect(store.kind).toBe('s3');
    await store.close();
  });
});
