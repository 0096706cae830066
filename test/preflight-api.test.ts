/**
 * `POST /v1/templates/:id/preflight` (docs/preflight.md) on a real server on loopback: findings
 * for the draft, a pinned version and sample rows, free of credits, confined to the workspace, and
 * bounded: a thousand rows answer within the render time limit, or say how many were checked.
 */
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite', { PLATEN_RENDER_RATE_LIMIT: '0' });
});
afterAll(() => server.close());

function headlineDocument() {
  const document = simpleDocument('{{headline}}');
  const text = document.pages[0]?.elements[1] as Record<string, unknown>;
  Object.assign(text, { autoFit: 'shrink', minFontSize: 20, height: 80 });
  return document;
}

async function setup() {
  const { workspaceId, key } = await workspaceWithKey(server.base, { credits: 5 });
  const created = await http(server.base, 'POST', '/v1/templates', {
    body: { name: 'card', document: headlineDocument() },
    headers: bearer(key),
  });
  const id = created.json.id as string;
  const preflight = (body?: unknown, as = key) =>
    http(server.base, 'POST', `/v1/templates/${id}/preflight`, { body, headers: bearer(as) });
  const balance = async () =>
    (await admin(server.base, 'GET', `/workspaces/${workspaceId}`)).json.creditBalance as number;
  return { key, id, preflight, balance };
}

const LONG = 'A headline far too long for its little box, however small auto-fit makes it go. '.repeat(3);

describe('POST /v1/templates/:id/preflight', () => {
  it('reports what a render would get wrong, with element, severity and message, and charges nothing', async () => {
    const { preflight, balance } = await setup();
    const fine = await preflight({ modifications: { headline: 'Short and sweet' } });
    expect(fine.status).toBe(200);
    expect(fine.json).toMatchObject({ ok: true, findings: [], rows: 1, checkedRows: 1, complete: true });

    const bad = await preflight({ modifications: { headline: `${LONG} สวัสดี` } });
    expect(bad.json.ok).toBe(false);
    const found = bad.json.findings.map((f: { code: string; elementId: string; severity: string }) =>
      [f.code, f.elementId, f.severity].join(':'),
    );
    expect(found.sort()).toEqual(['missing-glyphs:t1:error', 'text-below-min-size:t1:error']);
    expect(bad.json.counts).toEqual({ error: 2, warning: 0, info: 0 });
    expect(bad.json.findings[0].row).toBeUndefined();
    expect(await balance()).toBe(5);
  });

  it('checks sample rows, numbering each finding and listing the rows with errors', async () => {
    const { preflight } = await setup();
    const answer = await preflight({
      rows: [{ headline: 'Fine' }, { headline: LONG }, { card: 'nope' }, { headline: 'Also fine' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.json.rowsWithErrors).toEqual([1, 2]);
    expect(answer.json.findings.map((f: { row: number; code: string }) => [f.row, f.code])).toEqual([
      [1, 'text-below-min-size'],
      [2, 'invalid-modification'],
    ]);
  });

  it('checks the draft, or a pinned version, as a render would draw it', async () => {
    const { preflight, id, key } = await setup();
    const call = (method: string, path: string, body?: unknown) =>
      http(server.base, method, `/v1/templates/${id}${path}`, { body, headers: bearer(key) });
    expect((await preflight({ version: 1 })).status).toBe(404);
    expect((await call('POST', '/versions')).status).toBe(201);
    const document = simpleDocument('Pale text');
    const text = document.pages[0]?.elements[1] as Record<string, unknown>;
    text.color = '#d0d8ea';
    // Named, an element is a variable too: this draft no longer takes a headline.
    delete text.name;
    expect((await call('PUT', '', { document })).status).toBe(200);
    const draft = await preflight({ modifications: { headline: LONG } });
    expect(draft.json.findings.map((f: { code: string }) => f.code)).toEqual(['low-contrast']);
    const pinned = await preflight({ version: 1, modifications: { headline: LONG } });
    expect(pinned.json.findings.map((f: { code: string }) => f.code)).toEqual(['text-below-min-size']);
    expect((await preflight({ pageId: 'nope' })).status).toBe(404);
  });

  it('is confined to the workspace and refuses what it cannot bound', async () => {
    const { preflight } = await setup();
    const other = await workspaceWithKey(server.base, { credits: 1 });
    const foreign = await preflight({}, other.key);
    expect(foreign.status).toBe(403);
    expect(foreign.json.error.code).toBe('WORKSPACE_MISMATCH');
    const tooMany = await preflight({ rows: Array.from({ length: 1001 }, () => ({})) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.details[0].path).toBe('rows');
    const both = await preflight({ rows: [{}], modifications: {} });
    expect(both.status).toBe(400);
    expect((await preflight({ format: 'tiff' })).status).toBe(400);
  });

  it('checks a thousand rows within the render time limit', async () => {
    const { preflight } = await setup();
    const rows = Array.from({ length: 1000 }, (_, i) => ({ headline: i % 100 === 7 ? LONG : `Row ${i}` }));
    const started = Date.now();
    const answer = await preflight({ rows });
    expect(answer.status).toBe(200);
    expect(answer.json.rows).toBe(1000);
    // Every row checked, or the answer says how far it got; either way before the limit (30 s).
    expect(Date.now() - started).toBeLessThan(30_000);
    const checked = answer.json.checkedRows as number;
    expect(answer.json.complete).toBe(checked === 1000);
    expect(answer.json.rowsWithErrors).toEqual(
      Array.from({ length: 10 }, (_, i) => i * 100 + 7).filter((row) => row < checked),
    );
  });
});

describe('preflight within a short render time limit', () => {
  let short: TestServer;
  let silent: Server;
  let port = 0;
  beforeAll(async () => {
    // Takes connections and never answers, not even the TLS handshake: an image that never arrives.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    port = (silent.address() as AddressInfo).port;
    short = await startTestServer('sqlite', {
      PLATEN_RENDER_RATE_LIMIT: '0',
      PLATEN_RENDER_TIMEOUT_MS: '3000',
    });
  });
  afterAll(async () => {
    await short.close();
    silent.close();
  });

  it('answers before the limit with the rows it checked, and a batch fails the row that cannot be checked', async () => {
    const { key } = await workspaceWithKey(short.base, { credits: 5 });
    const document = simpleDocument('{{name}}');
    document.pages[0]?.elements.push({
      id: 'img',
      type: 'image',
      name: 'photo',
      x: 300,
      y: 200,
      width: 40,
      height: 40,
      src: 'asset:ast_placeholder',
    } as never);
    const created = await http(short.base, 'POST', '/v1/templates', {
      body: { name: 'slow', document },
      headers: bearer(key),
    });
    const id = created.json.id as string;
    const never = `https://127.0.0.1:${port}/never.png`;
    const started = Date.now();
    const answer = await http(short.base, 'POST', `/v1/templates/${id}/preflight`, {
      body: { rows: [{ name: 'a', photo: never }, { name: 'b' }] },
      headers: bearer(key),
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ ok: false, complete: false, checkedRows: 0, rows: 2 });

    const batch = await http(short.base, 'POST', `/v1/templates/${id}/batches`, {
      body: {
        rows: [
          { name: 'a', photo: never },
          { name: 'b', photo: 'asset:ast_gone' },
        ],
        preflight: true,
      },
      headers: bearer(key),
    });
    expect(batch.status).toBe(201);
    expect(
      batch.json.rows.map((row: { error: { details: { findings: { code: string }[] } } }) =>
        row.error.details.findings.map((f) => f.code),
      ),
    ).toEqual([['render-failed'], ['image-failed']]);
  }, 30_000);
});
