/**
 * Template versions end to end over HTTP (docs/versions.md): publish (idempotent), list, read,
 * pin in renders, signed URLs and batches, roll back under If-Match, diff as data and as a picture,
 * the audit trail, and the bad input the issue names. A real server on loopback, real renders.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUrl } from '../src/auth/index.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';
import { eventually } from './harness/webhooks.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite', { PLATEN_RENDER_RATE_LIMIT: '0' });
});
afterAll(() => server.close());

/** The sample document with its headline text and card colour as given. */
function documentWith(text: string, fill = '#e8eefc') {
  const document = simpleDocument(text);
  (document.pages[0]?.elements[0] as { fill: string }).fill = fill;
  return document;
}

async function setup(credits = 20) {
  const { workspaceId, key } = await workspaceWithKey(server.base, { credits });
  const created = await http(server.base, 'POST', '/v1/templates', {
    body: { name: 't', document: documentWith('Version one {{name}}') },
    headers: bearer(key),
  });
  const id = created.json.id as string;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    http(server.base, method, `/v1/templates/${id}${path}`, {
      body,
      headers: { ...bearer(key), ...headers },
    });
  const save = async (text: string, fill?: string) => {
    const saved = await call('PUT', '', { document: documentWith(text, fill) });
    expect(saved.status).toBe(200);
    return saved.json;
  };
  const balance = async () =>
    (await admin(server.base, 'GET', `/workspaces/${workspaceId}`)).json.creditBalance as number;
  return { workspaceId, key, id, call, save, balance };
}

describe('template versions', () => {
  it('publishes the draft as numbered, immutable versions; an unchanged draft answers its version', async () => {
    const { call, save } = await setup();
    const first = await call('POST', '/versions', { note: 'launch' });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      number: 1,
      note: 'launch',
      draftRevision: 1,
      publishedBy: expect.stringMatching(/^api_key:/),
    });
    expect(first.json.document.pages[0].elements[1].text).toBe('Version one {{name}}');
    // No body at all, or an empty one: the same version, 200.
    expect((await call('POST', '/versions')).status).toBe(200);
    const again = await call('POST', '/versions', {});
    expect([again.status, again.json.number, again.json.note]).toEqual([200, 1, 'launch']);

    await save('Version two {{name}}');
    expect((await call('POST', '/versions', { note: 'copy' })).json.number).toBe(2);
    await save('Draft three {{name}}');
    const listed = await call('GET', '/versions?limit=1');
    expect(listed.json.items.map((v: { number: number }) => v.number)).toEqual([2]);
    const rest = await call('GET', `/versions?limit=5&cursor=${listed.json.nextCursor}`);
    expect(rest.json).toMatchObject({ items: [{ number: 1, note: 'launch' }], nextCursor: null });
    expect((await call('GET', '/versions/latest')).json).toMatchObject({ number: 2, note: 'copy' });
    expect((await call('GET', '/versions/1')).json.document.pages[0].elements[1].text).toBe(
      'Version one {{name}}',
    );

    for (const [path, status] of [
      ['/versions/9', 404],
      ['/versions/0', 400],
      ['/versions/first', 400],
    ] as const)
      expect([path, (await call('GET', path)).status]).toEqual([path, status]);
    expect((await call('POST', '/versions', { note: 'x'.repeat(501) })).json.error.code).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('renders a pinned version while the draft moves on; the version is part of what makes renders identical', async () => {
    const { call, save, balance } = await setup();
    const fresh = await setup();
    // No version yet: `latest` and a number are 404, and nothing is charged.
    const none = await fresh.call('POST', '/render', { format: 'png', version: 'latest' });
    expect([none.status, none.json.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(await fresh.balance()).toBe(20);

    await call('POST', '/versions');
    await save('Changed draft {{name}}', '#fce8e8');
    const render = (body: object) =>
      call('POST', '/render', { format: 'png', modifications: { name: 'A' }, ...body });
    const pinned = await render({ version: 1 });
    expect(pinned.status).toBe(200);
    expect(pinned.json).toMatchObject({ version: 1, credits: { charged: 1 } });
    const latest = await render({ version: 'latest' });
    expect(latest.json).toMatchObject({ id: pinned.json.id, version: 1, credits: { charged: 0 } });
    const draft = await render({});
    expect(draft.json.credits.charged).toBe(1);
    expect(draft.json.version).toBeUndefined();
    expect(await balance()).toBe(18);

    // The pixels are version 1's (its blue card), not the draft's (red).
    const pixel = async (url: string) => {
      const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
      const { data } = await sharp(bytes)
        .extract({ left: 30, top: 250, width: 1, height: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return [...data.subarray(0, 3)];
    };
    expect(await pixel(pinned.json.url)).toEqual([0xe8, 0xee, 0xfc]);
    expect(await pixel(draft.json.url)).toEqual([0xfc, 0xe8, 0xe8]);

    const missing = await render({ version: 7 });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await render({ version: 'newest' })).json.error.code).toBe('VALIDATION_FAILED');
    expect(await balance()).toBe(18);
  });

  it('pins versions in signed URLs and batches (a batch resolves `latest` once)', async () => {
    const { workspaceId, id, key, call, save } = await setup();
    await call('POST', '/versions');
    await save('Second {{name}}');
    await call('POST', '/versions');
    const secret = await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {});
    const sign = (params: Record<string, string>) =>
      signUrl(server.base, `/v1/templates/${id}/image.png`, params, secret.json.secret);
    const one = await fetch(sign({ name: 'U', version: '1' }));
    const latest = await fetch(sign({ name: 'U', version: 'latest' }));
    expect([one.status, latest.status]).toEqual([200, 200]);
    expect(one.headers.get('etag')).not.toBe(latest.headers.get('etag'));
    const bad = await fetch(sign({ name: 'U', version: 'soon' }));
    expect(bad.status).toBe(400);
    expect((await fetch(sign({ name: 'U', version: '9' }))).status).toBe(404);

    const batch = await http(server.base, 'POST', `/v1/templates/${id}/batches`, {
      body: { format: 'png', version: 'latest', rows: [{ name: 'a' }, { name: 'b' }] },
      headers: bearer(key),
    });
    expect(batch.status).toBe(201);
    // Published while the batch runs: its rows stay on the version `latest` was when it was made.
    await save('Third {{name}}');
    await call('POST', '/versions');
    let rows: Array<{ status: string; renderId: string }> = [];
    await eventually(async () => {
      const got = await http(server.base, 'GET', `/v1/batches/${batch.json.id}`, { headers: bearer(key) });
      rows = got.json.rows;
      return got.json.status !== 'running';
    }, 20_000);
    for (const row of rows) {
      expect(row.status).toBe('done');
      const render = await http(server.base, 'GET', `/v1/renders/${row.renderId}`, { headers: bearer(key) });
      expect(render.json.version).toBe(2);
    }
    const csv = await http(server.base, 'POST', `/v1/templates/${id}/batches/csv?version=9`, {
      raw: 'name\nx\n',
      headers: { ...bearer(key), 'content-type': 'text/csv' },
    });
    expect([csv.status, csv.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('rolls the draft back to a version under If-Match, and audits publish and rollback with who did them', async () => {
    const { workspaceId, call, save } = await setup();
    await call('POST', '/versions', { note: 'good' });
    const bad = await save('Broken {{name}}');
    const stale = await call('POST', '/versions/1/rollback', undefined, {
      'if-match': `"${bad.revision - 1}"`,
    });
    expect([stale.status, stale.json.error.code]).toEqual([412, 'PRECONDITION_FAILED']);
    const rolled = await call('POST', '/versions/1/rollback', undefined, { 'if-match': `"${bad.revision}"` });
    expect(rolled.status).toBe(200);
    expect(rolled.headers.get('etag')).toBe(`"${bad.revision + 1}"`);
    expect(rolled.json.document.pages[0].elements[1].text).toBe('Version one {{name}}');
    // The draft equals version 1 again: publishing it answers version 1.
    expect((await call('POST', '/versions')).json).toMatchObject({ number: 1 });
    expect((await call('POST', '/versions/4/rollback')).status).toBe(404);

    const audit = await admin(server.base, 'GET', `/audit-log?workspaceId=${workspaceId}&limit=50`);
    const actions = audit.json.items.map(
      (e: { action: string; actor: { type: string }; details: unknown }) => [
        e.action,
        e.actor.type,
        e.details,
      ],
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        ['template.published', 'api_key', { version: 1, note: 'good' }],
        ['template.rolled_back', 'api_key', { version: 1, revision: bad.revision + 1 }],
      ]),
    );
    // The idempotent publish wrote nothing.
    expect(actions.filter(([action]: [string]) => action === 'template.published')).toHaveLength(1);
  });

  it('diffs versions and the draft element by element, and as a picture of changed pixels', async () => {
    const { call, save } = await setup();
    await call('POST', '/versions');
    await save('Version one {{name}}', '#fce8e8');
    const diff = await call('GET', '/diff');
    expect(diff.status).toBe(200);
    expect(diff.json).toMatchObject({
      from: { version: 1, revision: 1 },
      to: { version: null, revision: 2 },
      truncated: false,
    });
    expect(diff.json.changes).toEqual([
      { op: 'set', path: 'pages[p1].elements[r1].fill', from: '#e8eefc', to: '#fce8e8' },
    ]);
    await call('POST', '/versions');
    expect((await call('GET', '/diff?from=2&to=latest')).json.changes).toEqual([]);
    expect((await call('GET', '/diff?from=1&to=2')).json.changes).toHaveLength(1);
    expect((await call('GET', '/diff?from=1&to=tomorrow')).status).toBe(400);
    expect((await call('GET', '/diff?from=5')).status).toBe(404);

    const picture = await call('GET', '/diff.png?from=1&to=2');
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    const changed = Number(picture.headers.get('x-changed-pixels'));
    const total = Number(picture.headers.get('x-total-pixels'));
    // The card (360×260 of a 400×300 page, less the text on it) changed colour; the margin did not.
    expect(changed / total).toBeGreaterThan(0.5);
    expect(changed).toBeLessThan(total);
    const meta = await sharp(picture.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([400, 300]);
    mkdirSync('test/.tmp', { recursive: true });
    writeFileSync('test/.tmp/template-diff.png', picture.bytes);
    const same = await call('GET', '/diff.png?from=2&to=draft');
    expect(same.headers.get('x-changed-pixels')).toBe('0');
    expect((await call('GET', '/diff.png?pageId=nope')).status).toBe(404);
  });

  it("keeps versions inside their workspace: another workspace's key is refused on every version route", async () => {
    const mine = await setup();
    await mine.call('POST', '/versions');
    const other = await workspaceWithKey(server.base);
    for (const [method, path] of [
      ['POST', '/versions'],
      ['GET', '/versions'],
      ['GET', '/versions/1'],
      ['POST', '/versions/1/rollback'],
      ['GET', '/diff'],
      ['GET', '/diff.png'],
    ] as const) {
      const res = await http(server.base, method, `/v1/templates/${mine.id}${path}`, {
        headers: bearer(other.key),
      });
      expect([method, path, res.status, res.json.error.code]).toEqual([
        method,
        path,
        403,
        'WORKSPACE_MISMATCH',
      ]);
    }
    const render = await http(server.base, 'POST', `/v1/templates/${mine.id}/render`, {
      body: { version: 1 },
      headers: bearer(other.key),
    });
    expect(render.json.error.code).toBe('WORKSPACE_MISMATCH');
  });
});
