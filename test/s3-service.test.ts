/** The service with S3-compatible storage (s3rver on loopback): assets stored and served from S3. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ClientConfig } from '../src/files/s3.ts';
import { PNG_1X1 } from './fixtures/samples.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

let s3: S3rver;
let directory: string;
let server: TestServer;
let env: Record<string, string>;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'platen-s3-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await s3.run();
  env = {
    PLATEN_S3_BUCKET: 'platen-service',
    PLATEN_S3_ENDPOINT: `http://127.0.0.1:${port}`,
    PLATEN_S3_ACCESS_KEY_ID: 'S3RVER',
    PLATEN_S3_SECRET_ACCESS_KEY: 'S3RVER',
    PLATEN_S3_FORCE_PATH_STYLE: 'true',
  };
  const client = new S3Client(
    s3ClientConfig({
      bucket: 'platen-service',
      region: 'us-east-1',
      endpoint: env.PLATEN_S3_ENDPOINT,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      prefix: '',
    }),
  );
  await client.send(new CreateBucketCommand({ Bucket: 'platen-service' }));
  client.destroy();
  server = await startTestServer('sqlite', env);
});
afterAll(async () => {
  await server?.close();
  await s3?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('S3 storage', () => {
  it('keeps uploads in the bucket and serves them at their capability URL', async () => {
    expect(server.files.kind).toBe('s3');
    const { key } = await workspaceWithKey(server.base);
    const res = await http(server.base, 'POST', '/v1/assets', {
      raw: PNG_1X1,
      headers: { ...bearer(key), 'content-type': 'image/png' },
    });
    expect(res.status).toBe(201);
    const file = await fetch(res.json.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG_1X1)).toBe(true);
    expect((await http(server.base, 'GET', '/readyz')).json.checks.files).toBe('ok');
  });
});
