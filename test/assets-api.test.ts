/** The asset routes over real HTTP: sniffing, multipart, fonts, limits and capability-URL headers. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webps } from '../src/engine/goldens/exif-files.ts';
import { DEJAVU_TTF, PNG_1X1, SVG_WITH_SCRIPT } from './fixtures/samples.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

let server: TestServer;
let key: string;
const upload = (raw: Buffer | string, contentType: string, query = '') =>
  http(server.base, 'POST', `/v1/assets${query}`, {
    raw,
    headers: { ...bearer(key), 'content-type': contentType },
  });

beforeAll(async () => {
  server = await startTestServer('sqlite', { PLATEN_MAX_ASSET_BYTES: String(1024 * 1024) });
  key = (await workspaceWithKey(server.base)).key;
});
afterAll(() => server.close());

describe('assets', () => {
  it('sniffs the type from the bytes, not the declared Content-Type', async () => {
    const res = await upload(PNG_1X1, 'application/pdf');
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      kind: 'image',
      mimeType: 'image/png',
      byteSize: PNG_1X1.length,
      width: 1,
      height: 1,
    });
    expect(res.json.id).toMatch(/^ast_/);
    const file = await fetch(res.json.url);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG_1X1)).toBe(true);
  });

  it('reports a photo stored turned (EXIF orientation) at the size it is drawn', async () => {
    const stored = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c04020' } })
      .jpeg()
      .toBuffer();
    const turned = await sharp(stored).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect((await upload(turned, 'image/jpeg')).json).toMatchObject({ width: 30, height: 40 });
    // A WebP as Skia reads it: turned by a bare TIFF chunk (cwebp's), not by libvips's own chunk.
    const { libvips, bare } = await webps(6, stored);
    expect((await upload(bare, 'image/webp')).json).toMatchObject({ width: 30, height: 40 });
    expect((await upload(libvips, 'image/webp')).json).toMatchObject({ width: 40, height: 30 });
  });

  it('serves files with nosniff, a sandbox CSP, a length and a long immutable cache', async () => {
    const res = await upload(SVG_WITH_SCRIPT, 'image/svg+xml');
    expect(res.json.mimeType).toBe('image/svg+xml');
    const file = await fetch(res.json.url);
    expect(file.headers.get('content-type')).toBe('image/svg+xml');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(file.headers.get('cache-control')).toContain('immutable');
    expect(Number(file.headers.get('content-length'))).toBe(SVG_WITH_SCRIPT.length);
    // The URL is a capability: it carries a random token beyond the ids.
    expect(res.json.url).toMatch(new RegExp(`^${server.base}/files/assets/ws_[^/]+/[A-Za-z0-9_-]{20,}/ast_`));
  });

  it('accepts multipart uploads with one file part', async () => {
    const form = new FormData();
    form.append('file', new Blob([PNG_1X1], { type: 'image/png' }), 'dot.png');
    const res = await fetch(`${server.base}/v1/assets`, { method: 'POST', headers: bearer(key), body: form });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { kind: string }).kind).toBe('image');
  });

  it('reads a font family from the file', async () => {
    const res = await upload(DEJAVU_TTF(), 'font/ttf');
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ kind: 'font', mimeType: 'font/ttf', fontFamily: 'DejaVu Sans' });
    const named = await upload(DEJAVU_TTF(), 'application/octet-stream', '?family=Brand%20Sans');
    expect(named.json.fontFamily).toBe('Brand Sans');
  });

  it('lists, gets and deletes; the file is gone after delete', async () => {
    const created = await upload(PNG_1X1, 'image/png');
    const list = await http(server.base, 'GET', '/v1/assets?limit=100', { headers: bearer(key) });
    expect(list.json.items.map((a: { id: string }) => a.id)).toContain(created.json.id);
    const got = await http(server.base, 'GET', `/v1/assets/${created.json.id}`, { headers: bearer(key) });
    expect(got.json.url).toBe(created.json.url);
    expect(
      (await http(server.base, 'DELETE', `/v1/assets/${created.json.id}`, { headers: bearer(key) })).status,
    ).toBe(204);
    expect(
      (await http(server.base, 'GET', `/v1/assets/${created.json.id}`, { headers: bearer(key) })).status,
    ).toBe(404);
    expect((await fetch(created.json.url)).status).toBe(404);
  });

  describe('bad input', () => {
    it('refuses bytes that are no supported image or font (415)', async () => {
      const res = await upload('just some text', 'image/png');
      expect([res.status, res.json.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    });
    it('refuses an empty upload (400)', async () => {
      const res = await upload(Buffer.alloc(0), 'image/png');
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('VALIDATION_FAILED');
    });
    it('refuses a file over the asset limit (413)', async () => {
      const big = Buffer.concat([PNG_1X1, Buffer.alloc(2 * 1024 * 1024)]);
      const res = await upload(big, 'image/png');
      expect([res.status, res.json.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    });
    it('refuses a multipart file over the limit (413)', async () => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.concat([PNG_1X1, Buffer.alloc(2 * 1024 * 1024)])]), 'big.png');
      const res = await fetch(`${server.base}/v1/assets`, {
        method: 'POST',
        headers: bearer(key),
        body: form,
      });
      expect(res.status).toBe(413);
    });
    it('refuses a JSON body (415)', async () => {
      const res = await http(server.base, 'POST', '/v1/assets', {
        body: { url: 'https://example.com/x.png' },
        headers: bearer(key),
      });
      expect([res.status, res.json.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    });
    it('refuses a truncated PNG that cannot be decoded (400)', async () => {
      const res = await upload(PNG_1X1.subarray(0, 30), 'image/png');
      expect(res.status).toBe(400);
    });
    it('answers unknown and malformed ids 404, and unknown file keys 404', async () => {
      expect(
        (await http(server.base, 'GET', '/v1/assets/ast_0000000000000000000000', { headers: bearer(key) }))
          .status,
      ).toBe(404);
      expect((await http(server.base, 'DELETE', '/v1/assets/nope', { headers: bearer(key) })).status).toBe(
        404,
      );
      expect((await fetch(`${server.base}/files/assets/ws_x/aaaaaaaaaaaaaaaaaaaaaaaa/x.png`)).status).toBe(
        404,
      );
      expect((await fetch(`${server.base}/files/..%2F..%2Fplaten.db`)).status).toBe(404);
    });
  });
});
