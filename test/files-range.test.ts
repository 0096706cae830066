/**
 * Byte ranges on /files (RFC 9110 section 14) over HTTP on loopback, against the real service with
 * each storage backend: the folder store and S3 (s3rver). `<video>` and `<audio>` seek with these.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ClientConfig } from '../src/files/s3.ts';
import { PNG_1X1 } from './fixtures/samples.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

/** The headers every file answer keeps, ranged or not. */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
  'cross-origin-resource-policy': 'cross-origin',
  'cache-control': 'public, max-age=31536000, immutable',
  'accept-ranges': 'bytes',
};

/** s3rver on loopback with a bucket, as the service's PLATEN_S3_* settings. */
async function startS3(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 'platen-range-s3-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client(
    s3ClientConfig({
      bucket: 'platen-ranges',
      region: 'us-east-1',
      endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      prefix: '',
    }),
  );
  await client.send(new CreateBucketCommand({ Bucket: 'platen-ranges' }));
  client.destroy();
  return {
    env: {
      PLATEN_S3_BUCKET: 'platen-ranges',
      PLATEN_S3_ENDPOINT: endpoint,
      PLATEN_S3_ACCESS_KEY_ID: 'S3RVER',
      PLATEN_S3_SECRET_ACCESS_KEY: 'S3RVER',
      PLATEN_S3_FORCE_PATH_STYLE: 'true',
    },
    stop: async () => {
      await s3.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

describe.each(['folder', 's3'] as const)('/files byte ranges (%s storage)', (storage) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3>> | undefined;
  const bytes = randomBytes(10_000);
  const size = bytes.byteLength;
  const path = `/files/renders/ws_range/${randomBytes(12).toString('hex')}/rnd_clip.mp4`;

  beforeAll(async () => {
    s3 = storage === 's3' ? await startS3() : undefined;
    server = await startTestServer('sqlite', s3?.env ?? {});
    expect(server.files.kind).toBe(storage);
    await server.files.put(path.slice('/files/'.length), bytes, 'video/mp4');
  });
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  const get = (headers: Record<string, string> = {}, method = 'GET', at = path) =>
    http(server.base, method, at, { headers });

  function expectFileHeaders(res: Awaited<ReturnType<typeof get>>) {
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(res.headers.get(name), name).toBe(value);
  }

  async function expectWhole(headers: Record<string, string>) {
    const res = await get(headers);
    expect(res.status, JSON.stringify(headers)).toBe(200);
    expect(res.headers.get('content-range')).toBeNull();
    expect(res.headers.get('content-length')).toBe(String(size));
    expect(res.bytes.equals(bytes)).toBe(true);
    expectFileHeaders(res);
  }

  async function expectPart(range: string, start: number, end: number) {
    const res = await get({ range });
    expect(res.status, range).toBe(206);
    expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
    expect(res.headers.get('content-length'), range).toBe(String(end - start + 1));
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.bytes.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    expectFileHeaders(res);
  }

  it('sends the whole file with Accept-Ranges when no range is asked', async () => {
    await expectWhole({});
  });

  it('answers bytes=0-99 with 206 and exactly those 100 bytes', async () => {
    await expectPart('bytes=0-99', 0, 99);
  });

  it('answers a middle range, a single byte and the first two bytes Safari asks for', async () => {
    await expectPart('bytes=4000-4999', 4000, 4999);
    await expectPart('bytes=5-5', 5, 5);
    await expectPart('bytes=0-1', 0, 1);
  });

  it('answers an open-ended range to the end', async () => {
    await expectPart('bytes=9000-', 9000, size - 1);
    await expectPart('bytes=0-', 0, size - 1);
  });

  it('answers a suffix range with the last bytes, the whole file when it is longer', async () => {
    await expectPart('bytes=-100', size - 100, size - 1);
    await expectPart('bytes=-20000', 0, size - 1);
  });

  it('stops a range whose end is past the file at its last byte', async () => {
    await expectPart(`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1);
  });

  it('answers a range that starts at or past the end with 416 and the size', async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, 'bytes=-0']) {
      const res = await get({ range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range'), range).toBe(`bytes */${size}`);
      expect(res.bytes.byteLength).toBe(0);
      expectFileHeaders(res);
    }
  });

  it('ignores a malformed, invalid, multiple or other-unit range and sends the whole file', async () => {
    for (const range of [
      'bytes=abc',
      'bytes=10-5',
      'bytes=0-99,200-299',
      'items=0-9',
      'bytes 0-99',
      'bytes=-',
    ])
      await expectWhole({ range });
  });

  it('sends the whole file for a conditional range: there is no ETag it could match', async () => {
    await expectWhole({ range: 'bytes=0-99', 'if-range': '"some-etag"' });
  });

  it('answers HEAD as a whole-file GET without the body, Range or not', async () => {
    for (const headers of [{}, { range: 'bytes=0-99' }] as Record<string, string>[]) {
      const res = await get(headers, 'HEAD');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(size));
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.bytes.byteLength).toBe(0);
      expectFileHeaders(res);
    }
  });

  it('answers a missing file 404 with or without a range, and never marks the 404 immutable', async () => {
    const missing = `/files/renders/ws_range/${randomBytes(12).toString('hex')}/rnd_none.mp4`;
    for (const [method, headers] of [
      ['GET', {}],
      ['GET', { range: 'bytes=0-99' }],
      ['HEAD', {}],
    ] as const) {
      const res = await get(headers, method, missing);
      expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(404);
      expect(res.headers.get('cache-control') ?? '').not.toContain('immutable');
      expect(res.headers.get('content-range')).toBeNull();
    }
  });

  it('sends an empty file whole whatever the range', async () => {
    const empty = `/files/renders/ws_range/${randomBytes(12).toString('hex')}/rnd_empty.mp4`;
    await server.files.put(empty.slice('/files/'.length), new Uint8Array(0), 'video/mp4');
    for (const range of ['bytes=0-', 'bytes=-10']) {
      const res = await get({ range }, 'GET', empty);
      expect(res.status, range).toBe(200);
      expect(res.headers.get('content-length')).toBe('0');
    }
  });

  it('serves ranges of an uploaded asset at the URL the API gives', async () => {
    const { key } = await workspaceWithKey(server.base);
    const upload = await http(server.base, 'POST', '/v1/assets', {
      raw: PNG_1X1,
      headers: { ...bearer(key), 'content-type': 'image/png' },
    });
    expect(upload.status).toBe(201);
    const res = await fetch(upload.json.url, { headers: { range: 'bytes=0-7' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 0-7/${PNG_1X1.byteLength}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_1X1.subarray(0, 8))).toBe(true);
  });
});
