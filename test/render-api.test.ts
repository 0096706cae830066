/** The render route, one test per rule of docs/api.md's Rendering section, on every backend. */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { backends } from './harness/backends.ts';
import { imageInfo } from './harness/images.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

function twoPageDocument() {
  const doc = simpleDocument('Page {{n}}');
  const first = doc.pages[0];
  if (!first) throw new Error('fixture');
  doc.pages.push({
    ...first,
    id: 'p2',
    width: 200,
    height: 100,
    elements: [{ ...first.elements[1], id: 't2' } as (typeof first.elements)[number]],
  });
  return doc;
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `render API on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      let key: string;
      let workspaceId: string;
      let templateId: string;
      let multiId: string;
      const render = (id: string, body: unknown, k = key) =>
        http(server.base, 'POST', `/v1/templates/${id}/render`, { body, headers: bearer(k) });
      const balance = async (ws = workspaceId) =>
        (await admin(server.base, 'GET', `/workspaces/${ws}`)).json.creditBalance as number;

      beforeAll(async () => {
        server = await startTestServer(backend.name);
        ({ key, workspaceId } = await workspaceWithKey(server.base, { credits: 1000 }));
        templateId = (
          await http(server.base, 'POST', '/v1/templates', {
            body: { name: 'one', document: simpleDocument() },
            headers: bearer(key),
          })
        ).json.id;
        multiId = (
          await http(server.base, 'POST', '/v1/templates', {
            body: { name: 'two', document: twoPageDocument() },
            headers: bearer(key),
          })
        ).json.id;
      });
      afterAll(() => server.close());

      it('charges one credit for one file and serves it at the url (rule 1)', async () => {
        const before = await balance();
        const res = await render(templateId, { modifications: { name: 'rule1' } });
        expect(res.status).toBe(200);
        expect(res.json).toMatchObject({
          templateId,
          format: 'png',
          width: 400,
          height: 300,
          credits: { charged: 1, balanceAfter: before - 1 },
        });
        expect(res.json.id).toMatch(/^rnd_/);
        expect(new Date(res.json.createdAt).toString()).not.toBe('Invalid Date');
        const file = await fetch(res.json.url);
        const bytes = Buffer.from(await file.arrayBuffer());
        expect(bytes.length).toBe(res.json.byteSize);
        expect(imageInfo(bytes)).toMatchObject({ type: 'png', width: 400, height: 300 });
        expect(await balance()).toBe(before - 1);
      });

      it('replays an identical render for free, identical except credits (rule 2)', async () => {
        const first = await render(templateId, {
          format: 'jpeg',
          modifications: { a: '1', b: '2' },
          idempotencyKey: 'k1',
        });
        const again = await render(templateId, {
          idempotencyKey: 'k1',
          modifications: { b: '2', a: '1' },
          format: 'jpeg',
        });
        expect(again.status).toBe(200);
        expect(again.json.credits).toEqual({ charged: 0, balanceAfter: first.json.credits.balanceAfter });
        const { credits: _a, ...firstRest } = first.json;
        const { credits: _b, ...againRest } = again.json;
        expect(againRest).toEqual(firstRest);
      });

      it('renders allPages png as one file and one credit per page (rule 3)', async () => {
        const before = await balance();
        const res = await render(multiId, { allPages: true, modifications: { n: 'x' } });
        expect(res.json.pages).toHaveLength(2);
        expect(res.json.pages.map((p: { width: number }) => p.width)).toEqual([400, 200]);
        for (const page of res.json.pages)
          expect(page.credits).toEqual({ charged: 1, balanceAfter: before - 2 });
        expect(new Set(res.json.pages.map((p: { id: string }) => p.id)).size).toBe(2);
        expect(await balance()).toBe(before - 2);
        const replay = await render(multiId, { allPages: true, modifications: { n: 'x' } });
        for (const page of replay.json.pages) expect(page.credits.charged).toBe(0);
      });

      it('renders allPages pdf as one multi-page file for one credit', async () => {
        const before = await balance();
        const res = await render(multiId, { allPages: true, format: 'pdf' });
        expect(res.json).toMatchObject({ format: 'pdf', credits: { charged: 1, balanceAfter: before - 1 } });
        const bytes = Buffer.from(await (await fetch(res.json.url)).arrayBuffer());
        expect(imageInfo(bytes)).toMatchObject({ type: 'pdf', pages: 2 });
      });

      it('renders with every default when the request has no body at all', async () => {
        const res = await http(server.base, 'POST', `/v1/templates/${multiId}/render`, {
          headers: bearer(key),
        });
        expect(res.status).toBe(200);
        expect(res.json).toMatchObject({ format: 'png', width: 400, height: 300 });
      });

      it('renders the named page, the active page by default, and 404s an unknown page', async () => {
        expect((await render(multiId, { pageId: 'p2' })).json).toMatchObject({ width: 200, height: 100 });
        expect((await render(multiId, {})).json).toMatchObject({ width: 400, height: 300 });
        const missing = await render(multiId, { pageId: 'nope' });
        expect([missing.status, missing.json.error.code]).toEqual([404, 'NOT_FOUND']);
      });

      it('charges a changed modification, idempotencyKey, format, scale or draft; not a no-op save', async () => {
        const base = { modifications: { name: 'base' }, idempotencyKey: 'same' };
        await render(templateId, base);
        const charged = async (body: unknown) => (await render(templateId, body)).json.credits.charged;
        expect(await charged(base)).toBe(0);
        expect(await charged({ ...base, modifications: { name: 'other' } })).toBe(1);
        expect(await charged({ ...base, idempotencyKey: 'different' })).toBe(1);
        expect(await charged({ ...base, format: 'jpeg' })).toBe(1);
        expect(await charged({ ...base, scale: 2 })).toBe(1);
        const current = await http(server.base, 'GET', `/v1/templates/${templateId}`, {
          headers: bearer(key),
        });
        await http(server.base, 'PUT', `/v1/templates/${templateId}`, {
          body: { document: current.json.document },
          headers: bearer(key),
        });
        expect(await charged(base)).toBe(0);
        const changed = simpleDocument('Changed {{name}}');
        await http(server.base, 'PUT', `/v1/templates/${templateId}`, {
          body: { document: changed },
          headers: bearer(key),
        });
        expect(await charged(base)).toBe(1);
      });

      it('answers scale and quality', async () => {
        const res = await render(templateId, { scale: 2, format: 'jpeg', quality: 50 });
        expect(res.json).toMatchObject({ width: 800, height: 600, format: 'jpeg' });
        expect(imageInfo(Buffer.from(await (await fetch(res.json.url)).arrayBuffer()))).toMatchObject({
          type: 'jpeg',
          width: 800,
        });
      });

      it('returns a render by id as first returned, with charged 0', async () => {
        const first = await render(templateId, { idempotencyKey: 'by-id' });
        const got = await http(server.base, 'GET', `/v1/renders/${first.json.id}`, { headers: bearer(key) });
        expect(got.json).toEqual({ ...first.json, credits: { ...first.json.credits, charged: 0 } });
        const other = await workspaceWithKey(server.base);
        const foreign = await http(server.base, 'GET', `/v1/renders/${first.json.id}`, {
          headers: bearer(other.key),
        });
        expect(foreign.json.error.code).toBe('WORKSPACE_MISMATCH');
        expect(
          (await http(server.base, 'GET', '/v1/renders/rnd_0000000000000000000000', { headers: bearer(key) }))
            .status,
        ).toBe(404);
      });

      it('answers 402 INSUFFICIENT_CREDITS and charges nothing when unfunded', async () => {
        const poor = await workspaceWithKey(server.base, { credits: 1 });
        const t = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 'p', document: twoPageDocument() },
          headers: bearer(poor.key),
        });
        const res = await render(t.json.id, { allPages: true }, poor.key);
        expect([res.status, res.json.error.code]).toEqual([402, 'INSUFFICIENT_CREDITS']);
        expect(await balance(poor.workspaceId)).toBe(1);
        const ledger = await admin(server.base, 'GET', `/workspaces/${poor.workspaceId}/ledger`);
        expect(ledger.json.items).toHaveLength(1);
      });

      it('answers a suspended workspace 403 SUBSCRIPTION_SUSPENDED', async () => {
        const ws = await workspaceWithKey(server.base);
        const t = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 's', width: 10, height: 10 },
          headers: bearer(ws.key),
        });
        await admin(server.base, 'PATCH', `/workspaces/${ws.workspaceId}`, { suspended: true });
        expect((await render(t.json.id, {}, ws.key)).json.error.code).toBe('SUBSCRIPTION_SUSPENDED');
      });

      it('refunds a failed render: 422 RENDER_FAILED naming the element, balance unchanged', async () => {
        const closed: Server = createServer((_req, res) => res.destroy());
        await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
        const port = (closed.address() as { port: number }).port;
        const doc = simpleDocument();
        doc.pages[0]?.elements.push({
          id: 'img',
          type: 'image',
          x: 0,
          y: 0,
          width: 10,
          height: 10,
          src: `http://127.0.0.1:${port}/x.png`,
        } as never);
        const t = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 'broken', document: doc },
          headers: bearer(key),
        });
        const before = await balance();
        const res = await render(t.json.id, {});
        closed.close();
        expect([res.status, res.json.error.code]).toEqual([422, 'RENDER_FAILED']);
        expect(JSON.stringify(res.json.error.details)).toContain('img');
        expect(await balance()).toBe(before);
        const ledger = (await admin(server.base, 'GET', `/workspaces/${workspaceId}/ledger`)).json.items;
        expect(ledger.at(-1)).toMatchObject({ delta: 1, reason: 'refund: render failed' });
        expect(ledger.at(-1).balanceAfter).toBe(before);
      });

      it.each([
        ['unknown format', { format: 'bmp' }],
        ['modification value not a string', { modifications: { name: 5 } }],
        [
          'too many modifications',
          { modifications: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v'])) },
        ],
        ['huge modification value', { modifications: { name: 'x'.repeat(10_001) } }],
        ['scale out of range', { scale: 10 }],
        ['unknown field', { colour: 'red' }],
        ['bad colour for a rect', { modifications: { card: 'not-a-colour' } }],
      ])('refuses %s with 400 VALIDATION_FAILED', async (_name, body) => {
        const res = await render(templateId, body);
        expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
      });

      it('refuses a render over 50 megapixels', async () => {
        const big = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 'big', width: 8000, height: 8000 },
          headers: bearer(key),
        });
        const res = await render(big.json.id, {});
        expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
        const scaled = await render(templateId, { scale: 4 });
        expect(scaled.status).toBe(200);
      });

      it('refuses a malformed body and unknown template ids', async () => {
        const bad = await http(server.base, 'POST', `/v1/templates/${templateId}/render`, {
          raw: '{',
          headers: { ...bearer(key), 'content-type': 'application/json' },
        });
        expect(bad.json.error.code).toBe('INVALID_JSON');
        expect((await render('tpl_0000000000000000000000', {})).status).toBe(404);
        const other = await workspaceWithKey(server.base);
        expect((await render(templateId, {}, other.key)).json.error.code).toBe('WORKSPACE_MISMATCH');
      });
    },
  );
}
