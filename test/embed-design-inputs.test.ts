/**
 * The embed routes the studio draws with: `/images?src=` resolves a design's image source as a
 * render by the session would (asset visibility is covered by the isolation matrix), remote ones
 * through the SSRF guard, handing back only bytes that are an image; `/fonts` lists the uploaded
 * families with URLs whose bytes are the very files the renderer registers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEJAVU_TTF, PNG_1X1, SVG_WITH_SCRIPT } from './fixtures/samples.ts';
import { asSession, createEmbed, mint } from './harness/embeds.ts';
import {
  bearer,
  http,
  startOrigin,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';

let server: TestServer;
let strict: TestServer;
let origin: { base: string; close(): Promise<void> };
let originBase: string;

/** A stand-in for the internet on loopback: an image under a lying type, HTML, and nothing else. */
async function startImageOrigin(): Promise<void> {
  origin = await startOrigin((request, response) => {
    if (request.url === '/photo') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(PNG_1X1);
    } else if (request.url === '/page') {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end('<html><body>not an image</body></html>');
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  originBase = origin.base;
}

async function sessionOn(target: TestServer) {
  const ws = await workspaceWithKey(target.base);
  const embedId = (await createEmbed(target.base, ws.workspaceId)).id;
  const token = await mint(target.base, embedId, 'user-1');
  const as = asSession(target.base, token);
  const image = (src: string) => as('GET', `/v1/embed/${embedId}/images?src=${encodeURIComponent(src)}`);
  return { ws, embedId, token, as, image };
}

beforeAll(async () => {
  await startImageOrigin();
  server = await startTestServer();
  strict = await startTestServer('sqlite', { PLATEN_ALLOW_PRIVATE_URLS: 'false' });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await strict?.close();
  await origin?.close();
});

describe('GET /v1/embed/:embedId/images', () => {
  it('fetches a remote image and types it by its bytes, not its header', async () => {
    const { image } = await sessionOn(server);
    const res = await image(`${originBase}/photo`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.bytes.equals(Buffer.from(PNG_1X1))).toBe(true);
  });

  it('refuses what is not an image, and answers a failed fetch 422 with the reason', async () => {
    const { image } = await sessionOn(server);
    const html = await image(`${originBase}/page`);
    expect([html.status, html.json.error.code, html.json.error.details.reason]).toEqual([
      422,
      'RENDER_FAILED',
      'not an image',
    ]);
    const missing = await image(`${originBase}/nothing`);
    expect([missing.status, missing.json.error.code, missing.json.error.details.reason]).toEqual([
      422,
      'RENDER_FAILED',
      'http-status',
    ]);
  });

  it('refuses private addresses when the deployment does (the SSRF guard)', async () => {
    const { image } = await sessionOn(strict);
    for (const url of [
      `${originBase}/photo`,
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
    ]) {
      const res = await image(url);
      expect([url, res.status, res.json.error.code]).toEqual([url, 422, 'RENDER_FAILED']);
      expect(['private-address', 'protocol']).toContain(res.json.error.details.reason);
    }
  });

  it('decodes data URIs, and serves an SVG only as an inert image', async () => {
    const { image } = await sessionOn(server);
    const svg = await image(`data:image/svg+xml;base64,${Buffer.from(SVG_WITH_SCRIPT).toString('base64')}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    const text = await image('data:image/png;base64,aGVsbG8=');
    expect([text.status, text.json.error.code]).toEqual([422, 'RENDER_FAILED']);
  });

  it('answers bad sources 400 and unknown assets 404', async () => {
    const { as, embedId, image } = await sessionOn(server);
    for (const src of [
      'ftp://example.com/a.png',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'x'.repeat(9000),
    ]) {
      const res = await image(src);
      expect([src.slice(0, 30), res.status, res.json.error.code]).toEqual([
        src.slice(0, 30),
        400,
        'VALIDATION_FAILED',
      ]);
    }
    const none = await as('GET', `/v1/embed/${embedId}/images`);
    expect([none.status, none.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const unknown = await image('asset:ast_000000000000000000000000');
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('GET /v1/embed/:embedId/fonts', () => {
  it("lists the workspace's uploaded families with the very files the renderer uses", async () => {
    const { ws, as, embedId } = await sessionOn(server);
    const up = await http(server.base, 'POST', '/v1/assets?family=Brand%20Sans', {
      raw: DEJAVU_TTF(),
      headers: { ...bearer(ws.key), 'content-type': 'font/ttf' },
    });
    expect(up.status).toBe(201);
    const res = await as('GET', `/v1/embed/${embedId}/fonts`);
    expect(res.status).toBe(200);
    expect(res.json.items).toEqual([
      { family: 'Brand Sans', assetId: up.json.id, mimeType: 'font/ttf', url: up.json.url },
    ]);
    const file = await http(server.base, 'GET', new URL(res.json.items[0].url).pathname);
    expect(file.bytes.equals(DEJAVU_TTF())).toBe(true);
  });
});
