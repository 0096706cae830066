/** The template routes over real HTTP: create, read, list, save with revisions, patch, delete, bad input. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promoCard, simpleDocument } from './fixtures/samples.ts';
import { backends } from './harness/backends.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `templates API on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      let key: string;
      const req = (method: string, path: string, options: Parameters<typeof http>[3] = {}) =>
        http(server.base, method, path, { ...options, headers: { ...bearer(key), ...options.headers } });

      beforeAll(async () => {
        server = await startTestServer(backend.name);
        key = (await workspaceWithKey(server.base)).key;
      });
      afterAll(() => server.close());

      it('accepts the example document and returns the record with the normalised document (201)', async () => {
        const res = await req('POST', '/v1/templates', { body: { name: 'Promo', document: promoCard } });
        expect(res.status).toBe(201);
        expect(res.json).toMatchObject({
          name: 'Promo',
          width: 1080,
          height: 1080,
          pageCount: 2,
          revision: 1,
          shared: false,
          ownerUserId: null,
          thumbnailUrl: null,
        });
        expect(res.json.id).toMatch(/^tpl_[0-9A-Za-z]{16,}$/);
        expect(res.json.document.pages[0].elements[0].rotation).toBe(0);
        expect(res.headers.get('etag')).toBe('"1"');
      });

      it('creates a blank template from width and height', async () => {
        const res = await req('POST', '/v1/templates', { body: { name: 'Blank', width: 600, height: 400 } });
        expect(res.status).toBe(201);
        expect(res.json.document.pages).toHaveLength(1);
        expect(res.json).toMatchObject({ width: 600, height: 400, pageCount: 1 });
      });

      it('saves a draft with If-Match and refuses a stale revision with 412', async () => {
        const created = await req('POST', '/v1/templates', {
          body: { name: 'Rev', document: simpleDocument() },
        });
        const id = created.json.id;
        const first = await req('PUT', `/v1/templates/${id}`, {
          body: { document: simpleDocument('v2') },
          headers: { 'if-match': '"1"' },
        });
        expect(first.status).toBe(200);
        expect(first.json.revision).toBe(2);
        expect(first.headers.get('etag')).toBe('"2"');
        const stale = await req('PUT', `/v1/templates/${id}`, {
          body: { document: simpleDocument('v3') },
          headers: { 'if-match': '1' },
        });
        expect([stale.status, stale.json.error.code]).toEqual([412, 'PRECONDITION_FAILED']);
        const unconditional = await req('PUT', `/v1/templates/${id}`, {
          body: { document: simpleDocument('v3'), name: 'Renamed' },
        });
        expect(unconditional.json).toMatchObject({ revision: 3, name: 'Renamed' });
        const fetched = await req('GET', `/v1/templates/${id}`);
        expect(fetched.json.document.pages[0].elements[1].text).toBe('v3');
      });

      it('patches metadata without bumping the revision', async () => {
        const created = await req('POST', '/v1/templates', { body: { name: 'Meta', width: 10, height: 10 } });
        const patched = await req('PATCH', `/v1/templates/${created.json.id}`, {
          body: { shared: true, name: 'Shared' },
        });
        expect(patched.json).toMatchObject({ shared: true, name: 'Shared', revision: 1 });
      });

      it('deletes with 204 and then answers 404', async () => {
        const created = await req('POST', '/v1/templates', { body: { name: 'Gone', width: 10, height: 10 } });
        expect((await req('DELETE', `/v1/templates/${created.json.id}`)).status).toBe(204);
        const after = await req('GET', `/v1/templates/${created.json.id}`);
        expect([after.status, after.json.error.code]).toEqual([404, 'NOT_FOUND']);
      });

      it('pages the list with limit and cursor', async () => {
        const fresh = await workspaceWithKey(server.base);
        for (let i = 0; i < 3; i++) {
          await http(server.base, 'POST', '/v1/templates', {
            body: { name: `p${i}`, width: 10, height: 10 },
            headers: bearer(fresh.key),
          });
        }
        const first = await http(server.base, 'GET', '/v1/templates?limit=2', { headers: bearer(fresh.key) });
        expect(first.json.items).toHaveLength(2);
        expect(first.json.nextCursor).toEqual(expect.any(String));
        const second = await http(
          server.base,
          'GET',
          `/v1/templates?limit=2&cursor=${first.json.nextCursor}`,
          { headers: bearer(fresh.key) },
        );
        expect(second.json.items).toHaveLength(1);
        expect(second.json.nextCursor).toBeNull();
        expect(first.json.items[0]).not.toHaveProperty('document');
      });

      describe('bad input answers 4xx with its code', () => {
        const cases: [string, string, string, Parameters<typeof http>[3], number, string][] = [
          [
            'malformed JSON',
            'POST',
            '/v1/templates',
            { raw: '{"name": ', headers: { 'content-type': 'application/json' } },
            400,
            'INVALID_JSON',
          ],
          [
            'empty JSON body',
            'POST',
            '/v1/templates',
            { raw: '', headers: { 'content-type': 'application/json' } },
            400,
            'INVALID_JSON',
          ],
          [
            'wrong types',
            'POST',
            '/v1/templates',
            { body: { name: 42, width: 'wide' } },
            400,
            'VALIDATION_FAILED',
          ],
          [
            'unknown field',
            'POST',
            '/v1/templates',
            { body: { name: 'x', width: 1, height: 1, colour: 'red' } },
            400,
            'VALIDATION_FAILED',
          ],
          [
            'huge page size',
            'POST',
            '/v1/templates',
            { body: { name: 'x', width: 1e9, height: 1 } },
            400,
            'VALIDATION_FAILED',
          ],
          ['array body', 'POST', '/v1/templates', { body: [1, 2] }, 400, 'VALIDATION_FAILED'],
          [
            'text/plain body',
            'POST',
            '/v1/templates',
            { raw: 'hello', headers: { 'content-type': 'text/plain' } },
            415,
            'UNSUPPORTED_MEDIA_TYPE',
          ],
          [
            'oversized body',
            'POST',
            '/v1/templates',
            {
              raw: `{"name":"${'x'.repeat(6 * 1024 * 1024)}"}`,
              headers: { 'content-type': 'application/json' },
            },
            413,
            'PAYLOAD_TOO_LARGE',
          ],
          ['unknown id', 'GET', '/v1/templates/tpl_000000000000000000000000', {}, 404, 'NOT_FOUND'],
          ['malformed id', 'GET', '/v1/templates/..%2F..%2Fetc', {}, 404, 'NOT_FOUND'],
          ['undecodable path', 'GET', '/v1/templates/%E0%A4%A', {}, 404, 'NOT_FOUND'],
          ['over-long id', 'GET', `/v1/templates/tpl_${'x'.repeat(300)}`, {}, 404, 'NOT_FOUND'],
          ['bad limit', 'GET', '/v1/templates?limit=1000', {}, 400, 'VALIDATION_FAILED'],
          ['bad cursor', 'GET', '/v1/templates?cursor=garbage', {}, 400, 'VALIDATION_FAILED'],
          [
            'put unknown id',
            'PUT',
            '/v1/templates/tpl_000000000000000000000000',
            { body: { document: simpleDocument() } },
            404,
            'NOT_FOUND',
          ],
          [
            'patch empty name',
            'PATCH',
            '/v1/templates/tpl_000000000000000000000000',
            { body: { name: '' } },
            400,
            'VALIDATION_FAILED',
          ],
        ];
        for (const [name, method, path, options, status, code] of cases) {
          it(name, async () => {
            const res = await req(method, path, options);
            expect([res.status, res.json?.error?.code]).toEqual([status, code]);
          });
        }

        it('reports design document problems with their paths', async () => {
          const doc = simpleDocument();
          (doc.pages[0]?.elements[0] as Record<string, unknown>).fill = 'not-a-colour';
          (doc.pages[0]?.elements[1] as Record<string, unknown>).bogus = true;
          const res = await req('POST', '/v1/templates', { body: { name: 'bad', document: doc } });
          expect(res.json.error.code).toBe('VALIDATION_FAILED');
          const paths = res.json.error.details.map((d: { path: string }) => d.path);
          expect(paths).toContain('document.pages[0].elements[0].fill');
          expect(paths.some((p: string) => p.startsWith('document.pages[0].elements[1]'))).toBe(true);
        });

        it('refuses a document with too many elements', async () => {
          const doc = simpleDocument();
          const page = doc.pages[0];
          if (!page) throw new Error('fixture');
          page.elements = Array.from({ length: 501 }, (_, i) => ({
            id: `e${i}`,
            type: 'rect',
            x: 0,
            y: 0,
            width: 1,
            height: 1,
          })) as typeof page.elements;
          const res = await req('POST', '/v1/templates', { body: { name: 'big', document: doc } });
          expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
        });

        it('refuses a malformed If-Match', async () => {
          const created = await req('POST', '/v1/templates', { body: { name: 'im', width: 10, height: 10 } });
          const res = await req('PUT', `/v1/templates/${created.json.id}`, {
            body: { document: simpleDocument() },
            headers: { 'if-match': 'abc' },
          });
          expect(res.json.error.code).toBe('PRECONDITION_FAILED');
        });
      });
    },
  );
}
