/**
 * What lets a caller plan before it spends (docs/variables.md, docs/api.md): a template's
 * variables, a credit estimate that charges nothing, and a signed render URL made by the service.
 * A real server on loopback, real renders; the MCP tools over the same services are in mcp.test.ts.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1X1, simpleDocument } from './fixtures/samples.ts';
import {
  admin,
  bearer,
  http,
  startOrigin,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite', { PLATEN_RENDER_RATE_LIMIT: '0' });
});
afterAll(() => server.close());

function twoPages() {
  const document = simpleDocument('Hello {{name}}') as ReturnType<typeof simpleDocument> & {
    pages: Array<Record<string, unknown>>;
  };
  const second = structuredClone(document.pages[0]) as Record<string, unknown>;
  second.id = 'p2';
  second.elements = (second.elements as Array<Record<string, unknown>>).map((element) => ({
    ...element,
    id: `${element.id}b`,
  }));
  document.pages.push(second as never);
  return document;
}

async function setup(credits = 10) {
  const { workspaceId, key } = await workspaceWithKey(server.base, { credits });
  const created = await http(server.base, 'POST', '/v1/templates', {
    body: { name: 't', document: twoPages() },
    headers: bearer(key),
  });
  const id = created.json.id as string;
  const call = (method: string, path: string, body?: unknown) =>
    http(server.base, method, `/v1/templates/${id}${path}`, { body, headers: bearer(key) });
  const balance = async () =>
    (await admin(server.base, 'GET', `/workspaces/${workspaceId}`)).json.creditBalance as number;
  return { workspaceId, key, id, call, balance };
}

describe('GET /v1/templates/:id/variables', () => {
  it('lists the keys with kinds, defaults and boxes, for the draft or a pinned version', async () => {
    const { call } = await setup();
    const draft = await call('GET', '/variables');
    expect(draft.status).toBe(200);
    expect(draft.json.version).toBeNull();
    const names = draft.json.variables.map((v: { name: string; kind: string }) => `${v.name}:${v.kind}`);
    expect(names).toEqual(
      expect.arrayContaining(['card:color', 'card.visible:visibility', 'headline:text', 'name:text']),
    );
    const name = draft.json.variables.find((v: { name: string }) => v.name === 'name');
    expect(name.targets.map((t: { pageId: string }) => t.pageId)).toEqual(['p1', 'p2']);
    expect(name.targets[0]).toMatchObject({ elementId: 't1', box: { width: 320, height: 100 } });
    expect(name.targets[0].text).toMatchObject({
      autoFit: expect.any(String),
      minFontSize: expect.any(Number),
    });

    expect((await call('GET', '/variables?version=latest')).status).toBe(404);
    expect((await call('POST', '/versions')).status).toBe(201);
    const document = simpleDocument('Now {{city}}');
    expect((await call('PUT', '', { document })).status).toBe(200);
    const pinned = await call('GET', '/variables?version=1');
    expect(pinned.json.version).toBe(1);
    expect(pinned.json.variables.map((v: { name: string }) => v.name)).toContain('name');
    const now = await call('GET', '/variables');
    expect(now.json.variables.map((v: { name: string }) => v.name)).toContain('city');
    expect((await call('GET', '/variables?version=0')).status).toBe(400);
    expect((await call('GET', '/variables?version=7')).status).toBe(404);
  });

  it("answers another workspace's template as GET /v1/templates/:id does (403 WORKSPACE_MISMATCH)", async () => {
    const { id } = await setup();
    const other = await workspaceWithKey(server.base);
    const res = await http(server.base, 'GET', `/v1/templates/${id}/variables`, {
      headers: bearer(other.key),
    });
    expect([res.status, res.json.error.code]).toEqual([403, 'WORKSPACE_MISMATCH']);
  });
});

describe('POST /v1/templates/:id/estimate', () => {
  it('counts files and credits like the render route, identical renders free, and charges nothing', async () => {
    const { call, balance } = await setup(10);
    expect((await call('POST', '/estimate')).json).toEqual({
      renders: 1,
      files: 1,
      credits: 1,
      identical: 0,
      balance: 10,
      enough: true,
    });
    // Every page of two as PNG: two files; as one PDF: one.
    expect((await call('POST', '/estimate', { format: 'png', allPages: true })).json).toMatchObject({
      files: 2,
      credits: 2,
    });
    expect((await call('POST', '/estimate', { format: 'pdf', allPages: true })).json).toMatchObject({
      files: 1,
      credits: 1,
    });
    const rows = [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Ann' }];
    expect((await call('POST', '/estimate', { format: 'jpeg', rows })).json).toMatchObject({
      renders: 3,
      files: 3,
      credits: 2,
      identical: 1,
    });
    expect(await balance()).toBe(10);

    // After rendering Ann, her row is free; the estimate matches what the render then charges.
    expect((await call('POST', '/render', { format: 'jpeg', modifications: { name: 'Ann' } })).status).toBe(
      200,
    );
    const after = await call('POST', '/estimate', { format: 'jpeg', rows });
    expect(after.json).toMatchObject({ credits: 1, identical: 2, balance: 9, enough: true });
    const bob = await call('POST', '/render', { format: 'jpeg', modifications: { name: 'Bob' } });
    expect(bob.json.credits.charged).toBe(1);

    const many = Array.from({ length: 20 }, (_, i) => ({ name: `n${i}` }));
    expect((await call('POST', '/estimate', { rows: many })).json).toMatchObject({
      credits: 20,
      enough: false,
    });
  });

  it('refuses bad input with its code', async () => {
    const { call } = await setup();
    const both = await call('POST', '/estimate', { rows: [{}], modifications: {} });
    expect([both.status, both.json.error.details[0].path]).toEqual([400, 'rows']);
    const tooMany = await call('POST', '/estimate', { rows: Array.from({ length: 1001 }, () => ({})) });
    expect([tooMany.status, tooMany.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await call('POST', '/estimate', { async: true })).status).toBe(400);
    expect((await call('POST', '/estimate', { pageId: 'nope' })).status).toBe(404);
    expect((await call('POST', '/estimate', { version: 3 })).status).toBe(404);
  });
});

describe('POST /v1/templates/:id/signed-url', () => {
  it('signs with the newest secret a URL that renders once for a credit, audited', async () => {
    const { workspaceId, call, balance } = await setup(5);
    const none = await call('POST', '/signed-url', { format: 'png' });
    expect([none.status, none.json.error.code]).toEqual([409, 'CONFLICT']);
    await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {});
    const newest = await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {});

    const signed = await call('POST', '/signed-url', {
      format: 'jpeg',
      modifications: { name: 'Émile & co' },
      quality: 80,
      expiresInSeconds: 3600,
    });
    expect(signed.status).toBe(200);
    expect(signed.json.secretId).toBe(newest.json.id);
    const url = new URL(signed.json.url);
    expect(url.searchParams.get('name')).toBe('Émile & co');
    expect(url.searchParams.get('quality')).toBe('80');
    expect(Number(url.searchParams.get('exp'))).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(Date.parse(signed.json.expiresAt)).toBeGreaterThan(Date.now());

    const first = await fetch(url);
    expect([first.status, first.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    await first.arrayBuffer();
    expect(await balance()).toBe(4);
    expect((await fetch(url)).status).toBe(200);
    expect(await balance()).toBe(4);
    // Changing a byte breaks it: the signature covers the variables.
    url.searchParams.set('name', 'Emile');
    expect((await fetch(url)).status).toBe(403);

    const audit = await admin(server.base, 'GET', `/audit-log?workspaceId=${workspaceId}&limit=50`);
    const entry = audit.json.items.find((e: { action: string }) => e.action === 'render_url.signed');
    expect(entry).toMatchObject({
      actor: { type: 'api_key' },
      details: { secretId: newest.json.id, format: 'jpeg', version: null },
    });
    // The log never holds the URL or its signature.
    expect(JSON.stringify(audit.json)).not.toContain(url.searchParams.get('sig'));
  });

  it('refuses a variable named like a render option, a missing version, and another workspace', async () => {
    const { workspaceId, id, call } = await setup();
    await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {});
    const reserved = await call('POST', '/signed-url', { modifications: { sig: 'x', scale: '2' } });
    expect(reserved.status).toBe(400);
    expect(reserved.json.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'modifications.scale',
      'modifications.sig',
    ]);
    expect((await call('POST', '/signed-url', { version: 'latest' })).status).toBe(404);
    expect((await call('POST', '/signed-url', { expiresInSeconds: 5 })).status).toBe(400);
    const other = await workspaceWithKey(server.base);
    await admin(server.base, 'POST', `/workspaces/${other.workspaceId}/url-signing-secrets`, {});
    const foreign = await http(server.base, 'POST', `/v1/templates/${id}/signed-url`, {
      body: {},
      headers: bearer(other.key),
    });
    expect([foreign.status, foreign.json.error.code]).toEqual([403, 'WORKSPACE_MISMATCH']);
    const readOnly = await workspaceWithKey(server.base, { scopes: ['template:read'] });
    const scoped = await http(server.base, 'POST', `/v1/templates/${id}/signed-url`, {
      body: {},
      headers: bearer(readOnly.key),
    });
    expect([scoped.status, scoped.json.error.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
  });
});

describe('POST /v1/templates/:id/preview', () => {
  it('draws one page small and watermarked, with the values, charging and storing nothing', async () => {
    const { call, balance, key } = await setup(3);
    const res = await call('POST', '/preview', { modifications: { name: 'Preview' } });
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
      200,
      'image/png',
      'private, no-store',
    ]);
    const meta = await sharp(res.bytes).metadata();
    // The 400 × 300 page fits the 512 px box at scale 1.
    expect([meta.width, meta.height]).toEqual([400, 300]);
    if (process.env.PLATEN_KEEP_PREVIEW) await sharp(res.bytes).toFile(process.env.PLATEN_KEEP_PREVIEW);

    // The same page rendered (paid) differs from the preview only where the watermark is: across
    // the middle, not in the corners.
    const paid = await call('POST', '/render', { modifications: { name: 'Preview' } });
    const file = Buffer.from(await (await fetch(paid.json.url)).arrayBuffer());
    const [a, b] = await Promise.all(
      [res.bytes, file].map((bytes) =>
        sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true }),
      ),
    );
    const differs = (x0: number, y0: number, x1: number, y1: number) => {
      let count = 0;
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) {
          const i = (y * 400 + x) * 3;
          if (Math.abs((a?.data[i] ?? 0) - (b?.data[i] ?? 0)) > 24) count++;
        }
      return count;
    };
    expect(differs(120, 110, 280, 190)).toBeGreaterThan(1000);
    expect(differs(0, 0, 40, 40)).toBe(0);
    expect(differs(360, 260, 400, 300)).toBe(0);
    // Only the paid render was charged and listed.
    expect(await balance()).toBe(2);
    const renders = await http(server.base, 'GET', '/v1/renders', { headers: bearer(key) });
    expect(renders.json.items).toHaveLength(1);

    const jpeg = await call('POST', '/preview', { format: 'jpeg', pageId: 'p2' });
    expect([jpeg.status, jpeg.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
  });

  it('shrinks a large page into the box, and refuses bad input with its code', async () => {
    const { workspaceId, key } = await setup();
    const big = simpleDocument();
    Object.assign(big.pages[0] as object, { width: 2400, height: 1200 });
    const created = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 'big', document: big },
      headers: bearer(key),
    });
    const preview = await http(server.base, 'POST', `/v1/templates/${created.json.id}/preview`, {
      body: {},
      headers: bearer(key),
    });
    expect(preview.status).toBe(200);
    const meta = await sharp(preview.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([512, 256]);
    const call = (body: unknown) =>
      http(server.base, 'POST', `/v1/templates/${created.json.id}/preview`, { body, headers: bearer(key) });
    expect((await call({ format: 'pdf' })).status).toBe(400);
    expect((await call({ pageId: 'nope' })).status).toBe(404);
    expect((await call({ version: 1 })).status).toBe(404);
    expect((await call({ modifications: { card: 'not a colour' } })).status).toBe(400);
    expect((await admin(server.base, 'GET', `/workspaces/${workspaceId}`)).json.creditBalance).toBe(10);
  });
});

describe('POST /v1/assets/from-url', () => {
  it('fetches a file from a URL and stores it as an upload; a failed fetch is a 400 on url', async () => {
    const origin = await startOrigin((request, response) => {
      if (request.url === '/logo.png') response.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1X1);
      else if (request.url === '/moved') response.writeHead(302, { location: '/logo.png' }).end();
      else if (request.url === '/text')
        response.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      else response.writeHead(404).end();
    });
    try {
      const { key } = await workspaceWithKey(server.base);
      const upload = (url: string) =>
        http(server.base, 'POST', '/v1/assets/from-url', { body: { url }, headers: bearer(key) });
      const stored = await upload(`${origin.base}/moved`);
      expect(stored.status).toBe(201);
      expect(stored.json).toMatchObject({ kind: 'image', mimeType: 'image/png', width: 1, height: 1 });
      const file = await fetch(stored.json.url);
      expect(Buffer.from(await file.arrayBuffer()).equals(PNG_1X1)).toBe(true);

      const missing = await upload(`${origin.base}/nothing`);
      expect([missing.status, missing.json.error.details[0].path]).toEqual([400, 'url']);
      expect(missing.json.error.details[0].message).toMatch(/^http-status: .*404/);
      // Fetched, but not a kind of file an asset may be: the upload's own refusal.
      expect((await upload(`${origin.base}/text`)).status).toBe(415);
      expect((await upload('ftp://example.com/a.png')).status).toBe(400);
    } finally {
      await origin.close();
    }
  });

  it('never reaches a private or loopback address when private URLs are not allowed', async () => {
    const guarded = await startTestServer('sqlite', { PLATEN_ALLOW_PRIVATE_URLS: 'false' });
    const origin = await startOrigin((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1X1);
    });
    try {
      const { key } = await workspaceWithKey(guarded.base);
      for (const url of [
        `${origin.base.replace('http:', 'https:')}/logo.png`,
        'https://127.0.0.1/x.png',
        'https://[::1]/x.png',
        'https://169.254.169.254/latest/meta-data',
        `${origin.base}/logo.png`,
      ]) {
        const res = await http(guarded.base, 'POST', '/v1/assets/from-url', {
          body: { url },
          headers: bearer(key),
        });
        expect([url, res.status, res.json.error.details[0].path]).toEqual([url, 400, 'url']);
        expect(res.json.error.details[0].message).toMatch(/^(private-address|protocol):/);
      }
    } finally {
      await origin.close();
      await guarded.close();
    }
  });
});
