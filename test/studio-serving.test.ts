/**
 * The studio's serving routes on a real server: the shell's HTML with its CSP and framing headers,
 * the hashed bundle (immutable, typed, no traversal), the /embed.js loader, and the font manifest,
 * which must list exactly the files the render processes register.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledFontFiles } from '../src/engine/backends/fonts.ts';
import { DEFAULT_DIST_DIR } from '../src/studio/build.ts';
import { STUDIO_CSP, studioFeature } from '../src/studio/index.ts';
import { http, startTestServer, type TestServer } from './harness/server.ts';
import { ensureStudioBuilt } from './harness/studio.ts';

let server: TestServer;

beforeAll(async () => {
  await ensureStudioBuilt();
  server = await startTestServer();
}, 120_000);
afterAll(() => server?.close());

describe('studio serving', () => {
  it('serves the shell with a strict CSP that still lets customers frame it', async () => {
    const res = await http(server.base, 'GET', '/studio/emb_abc123');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(STUDIO_CSP);
    for (const directive of [
      "default-src 'self'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "font-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "script-src 'self'",
      'frame-ancestors *',
    ])
      expect(csp).toContain(directive);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const html = res.bytes.toString('utf8');
    expect(html).toContain('/studio/assets/');
    // Everything from the service's own origin: no absolute URL to any host in the page.
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  it('answers 404 for a path that is not an embed id', async () => {
    const res = await http(server.base, 'GET', '/studio/not-an-embed');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });

  it('serves the hashed assets immutable with their content types', async () => {
    const names = await readdir(join(DEFAULT_DIST_DIR, 'assets'));
    const js = names.find((name) => name.endsWith('.js'));
    const css = names.find((name) => name.endsWith('.css'));
    expect(js).toBeDefined();
    const script = await http(server.base, 'GET', `/studio/assets/${js}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Number(script.headers.get('content-length'))).toBe(script.bytes.length);
    if (css)
      expect((await http(server.base, 'GET', `/studio/assets/${css}`)).headers.get('content-type')).toMatch(
        /^text\/css/,
      );
  });

  it('refuses traversal and unknown files', async () => {
    for (const path of [
      '/studio/assets/../index.html',
      '/studio/assets/..%2Findex.html',
      '/studio/assets/%2e%2e/%2e%2e/package.json',
      '/studio/assets/..%2F..%2F..%2Fpackage.json',
      '/studio/assets/nope.js',
      '/studio/assets/.hidden',
      '/studio/fonts/..%2F..%2Fpackage.json',
      '/studio/fonts/package.json',
    ]) {
      const res = await http(server.base, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.bytes.toString('utf8'), path).not.toContain('"name": "platen"');
    }
  });

  it('serves /embed.js for cross-origin pages with a short cache', async () => {
    const res = await http(server.base, 'GET', '/embed.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const code = res.bytes.toString('utf8');
    expect(code).toContain('Platen');
    expect(res.bytes.length).toBeLessThan(8 * 1024);
  });

  it('lists in its font manifest exactly the files the server registers, and serves them', async () => {
    const res = await http(server.base, 'GET', '/studio/fonts/manifest.json');
    expect(res.status).toBe(200);
    const fonts = res.json.fonts as { family: string; weight: number; style: string; url: string }[];
    const registered = bundledFontFiles();
    expect(fonts.map((f) => [f.family, f.weight, f.style, f.url])).toEqual(
      registered.map((f) => [f.family, f.weight, f.style, `/studio/fonts/${encodeURIComponent(f.file)}`]),
    );
    const families = new Set(fonts.map((f) => f.family));
    for (const family of ['Inter', 'Noto Sans SC', 'DejaVu Sans', 'Twemoji Mozilla'])
      expect(families).toContain(family);
    const inter = fonts.find((f) => f.family === 'Inter' && f.weight === 400 && f.style === 'normal');
    if (!inter) throw new Error('no Inter 400 in the manifest');
    const file = await http(server.base, 'GET', inter.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('font/ttf');
    const source = registered.find((f) => f.family === 'Inter' && f.weight === 400 && f.style === 'normal');
    const { readFile } = await import('node:fs/promises');
    expect(file.bytes.equals(await readFile(source?.path ?? ''))).toBe(true);
    const emoji = fonts.find((f) => f.family === 'Twemoji Mozilla');
    expect((await http(server.base, 'GET', emoji?.url ?? '')).headers.get('content-type')).toBe('font/woff2');
  });
});

describe('studio serving without a bundle', () => {
  it('answers a 503 page saying how to build, instead of failing to start', async () => {
    const app = Fastify();
    const dir = join(DEFAULT_DIST_DIR, '..', 'no-such-dist');
    await app.register(async (scope) => studioFeature({ distDir: dir, buildIfMissing: false }).routes(scope));
    const res = await app.inject({ method: 'GET', url: '/studio/emb_abc123' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build:studio');
    expect((await app.inject({ method: 'GET', url: '/embed.js' })).statusCode).toBe(503);
    await app.close();
  });
});
