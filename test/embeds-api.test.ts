/**
 * The embed API over real HTTP: the operator's embed configuration routes, public info, CORS
 * (browsers may call the info and session-token routes, never minting or the machine API),
 * minting sessions, rendering with the machine API's credit rules and rate limit, and the template
 * routes' payloads and errors matching the machine API's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { backends } from './harness/backends.ts';
import { asSession, createEmbed, mint, mintRaw, patchEmbed } from './harness/embeds.ts';
import {
  admin,
  bearer,
  http,
  keyFor,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';

const MISSING_EMBED = 'emb_000000000000000000000000';
const PUBLIC_FIELDS = [
  'assetPickerEnabled',
  'brandAccentColor',
  'brandIconUrl',
  'brandTitle',
  'downloadsEnabled',
  'enabled',
  'publishedOnly',
  'smartResizeEnabled',
];

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `embeds API on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      let ws: { workspaceId: string; key: string };
      beforeAll(async () => {
        server = await startTestServer(backend.name, { PLATEN_RENDER_RATE_LIMIT: '5' });
        ws = await workspaceWithKey(server.base);
      });
      afterAll(() => server.close());

      describe('operator routes', () => {
        it('creates an embed with the contract defaults (201), lists, reads and deletes it', async () => {
          const created = await admin(server.base, 'POST', `/workspaces/${ws.workspaceId}/embeds`, {});
          expect(created.status).toBe(201);
          expect(created.json).toMatchObject({
            workspaceId: ws.workspaceId,
            enabled: true,
            downloadsEnabled: true,
            assetPickerEnabled: true,
            smartResizeEnabled: true,
            multiTenant: true,
            sessionTtlSeconds: 3600,
            mintRequiresApiKey: false,
            publishedOnly: false,
          });
          expect(created.json.id).toMatch(/^emb_[0-9A-Za-z]{16,}$/);
          const id = created.json.id;
          const list = await admin(server.base, 'GET', `/workspaces/${ws.workspaceId}/embeds`);
          expect(list.json.items.map((e: { id: string }) => e.id)).toContain(id);
          expect((await admin(server.base, 'GET', `/embeds/${id}`)).json).toEqual(created.json);
          expect((await admin(server.base, 'DELETE', `/embeds/${id}`)).status).toBe(204);
          const gone = await admin(server.base, 'GET', `/embeds/${id}`);
          expect([gone.status, gone.json.error.code]).toEqual([404, 'NOT_FOUND']);
        });

        it('patches each field', async () => {
          const { id } = await createEmbed(server.base, ws.workspaceId);
          const changes: Record<string, unknown> = {
            brandTitle: 'Acme Studio',
            brandIconUrl: 'https://cdn.example.com/icon.png',
            brandAccentColor: '#ff0000',
            enabled: false,
            downloadsEnabled: false,
            assetPickerEnabled: false,
            smartResizeEnabled: false,
            multiTenant: false,
            sessionTtlSeconds: 60,
            mintRequiresApiKey: true,
            publishedOnly: true,
          };
          for (const [field, value] of Object.entries(changes)) {
            const res = await admin(server.base, 'PATCH', `/embeds/${id}`, { [field]: value });
            expect([field, res.status, res.json[field]]).toEqual([field, 200, value]);
          }
          expect((await admin(server.base, 'GET', `/embeds/${id}`)).json).toMatchObject(changes);
        });

        it('refuses bad settings with 400 VALIDATION_FAILED and unknown ids with 404', async () => {
          const { id } = await createEmbed(server.base, ws.workspaceId);
          for (const body of [
            { brandAccentColor: 'red' },
            { brandAccentColor: '#12345' },
            { brandIconUrl: 'http://example.com/icon.png' },
            { brandIconUrl: 'javascript:alert(1)' },
            { colour: '#fff' },
            { sessionTtlSeconds: 59 },
            { sessionTtlSeconds: 86_401 },
            { enabled: 'yes' },
          ]) {
            for (const [method, path] of [
              ['POST', `/workspaces/${ws.workspaceId}/embeds`],
              ['PATCH', `/embeds/${id}`],
            ] as const) {
              const res = await admin(server.base, method, path, body);
              expect([method, body, res.status, res.json.error.code]).toEqual([
                method,
                body,
                400,
                'VALIDATION_FAILED',
              ]);
            }
          }
          for (const [method, path, body] of [
            ['POST', '/workspaces/ws_000000000000000000000000/embeds', {}],
            ['GET', '/workspaces/ws_000000000000000000000000/embeds', undefined],
            ['GET', `/embeds/${MISSING_EMBED}`, undefined],
            ['PATCH', `/embeds/${MISSING_EMBED}`, { enabled: false }],
            ['DELETE', `/embeds/${MISSING_EMBED}`, undefined],
            ['GET', '/embeds/not-an-id', undefined],
          ] as const) {
            const res = await admin(server.base, method, path, body);
            expect([method, path, res.status, res.json.error.code]).toEqual([method, path, 404, 'NOT_FOUND']);
          }
        });
      });

      describe('public info', () => {
        it("returns exactly the spec's seven fields; a disabled embed says enabled: false", async () => {
          const { id } = await createEmbed(server.base, ws.workspaceId, { brandTitle: 'Acme' });
          const info = await http(server.base, 'GET', `/v1/embed/${id}`);
          expect(info.status).toBe(200);
          expect(Object.keys(info.json).sort()).toEqual(PUBLIC_FIELDS);
          expect(info.json).toMatchObject({ enabled: true, brandTitle: 'Acme', downloadsEnabled: true });
          await patchEmbed(server.base, id, { enabled: false });
          const disabled = await http(server.base, 'GET', `/v1/embed/${id}`);
          expect([disabled.status, disabled.json.enabled]).toEqual([200, false]);
          const unknown = await http(server.base, 'GET', `/v1/embed/${MISSING_EMBED}`);
          expect([unknown.status, unknown.json.error.code]).toEqual([404, 'NOT_FOUND']);
        });
      });

      describe('CORS', () => {
        const preflight = (path: string, method: string) =>
          http(server.base, 'OPTIONS', path, {
            headers: {
              origin: 'https://customer.example',
              'access-control-request-method': method,
              'access-control-request-headers': 'authorization, content-type',
            },
          });
        const fromBrowser = { origin: 'https://customer.example' };

        it('lets browsers call public info and the session-token routes', async () => {
          const { id } = await createEmbed(server.base, ws.workspaceId);
          const token = await mint(server.base, id, 'u');
          for (const [method, path] of [
            ['GET', `/v1/embed/${id}`],
            ['GET', `/v1/embed/${id}/templates`],
            ['POST', `/v1/embed/${id}/templates`],
            ['PUT', `/v1/embed/${id}/templates/tpl_000000000000000000000000`],
            ['POST', `/v1/embed/${id}/templates/tpl_000000000000000000000000/render`],
            ['GET', `/v1/embed/${id}/assets`],
            ['POST', `/v1/embed/${id}/assets`],
          ] as const) {
            const res = await preflight(path, method);
            expect([path, res.status < 300, res.headers.get('access-control-allow-origin')]).toEqual([
              path,
              true,
              '*',
            ]);
            expect(res.headers.get('access-control-allow-methods')).toContain(method);
            expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
          }
          const listed = await http(server.base, 'GET', `/v1/embed/${id}/templates`, {
            headers: { ...fromBrowser, ...bearer(token) },
          });
          expect([listed.status, listed.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
          // Errors too, so the studio can read them.
          const refused = await http(server.base, 'GET', `/v1/embed/${id}/templates`, {
            headers: fromBrowser,
          });
          expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([401, '*']);
        });

        it('answers no CORS on session minting and on the machine API', async () => {
          const { id } = await createEmbed(server.base, ws.workspaceId);
          for (const [method, path] of [
            ['POST', `/v1/embed/${id}/session`],
            ['GET', '/v1/templates'],
            ['POST', '/v1/templates/tpl_000000000000000000000000/render'],
            ['POST', '/v1/assets'],
          ] as const) {
            const res = await preflight(path, method);
            expect([path, res.headers.get('access-control-allow-origin')]).toEqual([path, null]);
            expect(res.headers.get('access-control-allow-methods')).toBeNull();
          }
          const minted = await http(server.base, 'POST', `/v1/embed/${id}/session`, {
            body: { userId: 'u' },
            headers: fromBrowser,
          });
          expect([minted.status, minted.headers.get('access-control-allow-origin')]).toEqual([201, null]);
          const machine = await http(server.base, 'GET', '/v1/templates', {
            headers: { ...fromBrowser, ...bearer(ws.key) },
          });
          expect([machine.status, machine.headers.get('access-control-allow-origin')]).toEqual([200, null]);
        });
      });

      describe('minting sessions', () => {
        it('answers 201 {token, expiresAt} expiring after the embed TTL', async () => {
          const { id } = await createEmbed(server.base, ws.workspaceId, { sessionTtlSeconds: 600 });
          const before = Date.now();
          const res = await mintRaw(server.base, id, { userId: 'u1' });
          expect(res.status).toBe(201);
          expect(Object.keys(res.json).sort()).toEqual(['expiresAt', 'token']);
          expect(res.headers.get('cache-control')).toBe('no-store');
          const expires = Date.parse(res.json.expiresAt);
          expect(expires).toBeGreaterThanOrEqual(before + 600_000 - 2000);
          expect(expires).toBeLessThanOrEqual(Date.now() + 600_000 + 1000);
        });

        it('needs userId on a multi-tenant embed only; 404 unknown; 403 EMBED_DISABLED', async () => {
          const multi = await createEmbed(server.base, ws.workspaceId);
          const single = await createEmbed(server.base, ws.workspaceId, { multiTenant: false });
          const cases: [string, object, number, string | null][] = [
            [multi.id, {}, 400, 'VALIDATION_FAILED'],
            [multi.id, { userId: '  ' }, 400, 'VALIDATION_FAILED'],
            [multi.id, { userId: 'u', extra: 1 }, 400, 'VALIDATION_FAILED'],
            [single.id, {}, 201, null],
            [single.id, { userId: 'u' }, 201, null],
            [MISSING_EMBED, { userId: 'u' }, 404, 'NOT_FOUND'],
            ['garbage', { userId: 'u' }, 404, 'NOT_FOUND'],
          ];
          for (const [id, body, status, code] of cases) {
            const res = await mintRaw(server.base, id, body);
            expect([id, body, res.status, res.json.error?.code ?? null]).toEqual([id, body, status, code]);
          }
          await patchEmbed(server.base, multi.id, { enabled: false });
          const disabled = await mintRaw(server.base, multi.id, { userId: 'u' });
          expect([disabled.status, disabled.json.error.code]).toEqual([403, 'EMBED_DISABLED']);
        });

        it('with mintRequiresApiKey, needs a key of the workspace holding the session scopes, checked first', async () => {
          const { id } = await createEmbed(server.base, ws.workspaceId, { mintRequiresApiKey: true });
          const other = await workspaceWithKey(server.base);
          const narrow = await keyFor(server.base, ws.workspaceId, ['template:read']);
          const cases: [Record<string, string>, number, string | null][] = [
            [{}, 403, 'INVALID_API_KEY'],
            [bearer('plt_not-a-key'), 403, 'INVALID_API_KEY'],
            [bearer(other.key), 403, 'WORKSPACE_MISMATCH'],
            [{ 'x-api-key': narrow.key }, 403, 'INSUFFICIENT_SCOPE'],
            [bearer(ws.key), 201, null],
            [{ 'x-api-key': ws.key }, 201, null],
          ];
          for (const [headers, status, code] of cases) {
            const res = await mintRaw(server.base, id, { userId: 'u' }, headers);
            expect([headers, res.status, res.json.error?.code ?? null]).toEqual([headers, status, code]);
          }
          // A caller without the key does not learn that the embed is disabled.
          await patchEmbed(server.base, id, { enabled: false });
          expect((await mintRaw(server.base, id, { userId: 'u' })).json.error.code).toBe('INVALID_API_KEY');
          expect((await mintRaw(server.base, id, { userId: 'u' }, bearer(ws.key))).json.error.code).toBe(
            'EMBED_DISABLED',
          );
        });
      });

      describe('rendering through the embed', () => {
        it('charges the workspace like the machine API: 1 credit, identical repeats free, idempotencyKey honoured', async () => {
          const funded = await workspaceWithKey(server.base, { credits: 2 });
          const { id } = await createEmbed(server.base, funded.workspaceId);
          const session = asSession(server.base, await mint(server.base, id, 'u'));
          const t = await session('POST', `/v1/embed/${id}/templates`, {
            body: { name: 'r', document: simpleDocument() },
          });
          const render = (body: object) =>
            session('POST', `/v1/embed/${id}/templates/${t.json.id}/render`, { body });
          const first = await render({ modifications: { name: 'A' } });
          expect([first.status, first.json.credits]).toEqual([200, { charged: 1, balanceAfter: 1 }]);
          expect(first.json).toMatchObject({ templateId: t.json.id, format: 'png', width: 400, height: 300 });
          const again = await render({ modifications: { name: 'A' } });
          expect({ ...again.json, credits: undefined }).toEqual({ ...first.json, credits: undefined });
          expect(again.json.credits).toEqual({ charged: 0, balanceAfter: 1 });
          const keyed = await render({ modifications: { name: 'A' }, idempotencyKey: 'k1' });
          expect(keyed.json.credits).toEqual({ charged: 1, balanceAfter: 0 });
          expect((await render({ modifications: { name: 'A' }, idempotencyKey: 'k1' })).json.credits).toEqual(
            {
              charged: 0,
              balanceAfter: 0,
            },
          );
          const broke = await render({ modifications: { name: 'B' } });
          expect([broke.status, broke.json.error.code]).toEqual([402, 'INSUFFICIENT_CREDITS']);
          const balance = await admin(server.base, 'GET', `/workspaces/${funded.workspaceId}`);
          expect(balance.json.creditBalance).toBe(0);
        });

        it('is gated by downloadsEnabled (403 INSUFFICIENT_SCOPE render:write)', async () => {
          const { id } = await createEmbed(server.base, ws.workspaceId, { downloadsEnabled: false });
          const session = asSession(server.base, await mint(server.base, id, 'u'));
          const t = await session('POST', `/v1/embed/${id}/templates`, {
            body: { name: 'r', width: 8, height: 8 },
          });
          const res = await session('POST', `/v1/embed/${id}/templates/${t.json.id}/render`, { body: {} });
          expect([res.status, res.json.error.code, res.json.error.details.requiredScope]).toEqual([
            403,
            'INSUFFICIENT_SCOPE',
            'render:write',
          ]);
        });

        it('limits renders per end-user: 429 RATE_LIMITED with Retry-After and RateLimit-* headers', async () => {
          const { id } = await createEmbed(server.base, ws.workspaceId);
          const userA = asSession(server.base, await mint(server.base, id, 'a'));
          const t = await userA('POST', `/v1/embed/${id}/templates`, {
            body: { name: 'r', width: 8, height: 8 },
          });
          const path = `/v1/embed/${id}/templates/${t.json.id}/render`;
          const results = [];
          for (let i = 0; i < 6; i++) results.push(await userA('POST', path, { body: {} }));
          expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
          for (const r of results) expect(r.headers.get('ratelimit-limit')).toBe('5');
          const limited = results[5];
          expect(limited?.json.error.code).toBe('RATE_LIMITED');
          expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(limited?.headers.get('ratelimit-remaining')).toBe('0');
          // A fresh token for the same user shares the budget; another user has their own.
          const again = asSession(server.base, await mint(server.base, id, 'a'));
          expect((await again('POST', path, { body: {} })).status).toBe(429);
          const userB = asSession(server.base, await mint(server.base, id, 'b'));
          const own = await userB('POST', `/v1/embed/${id}/templates`, {
            body: { name: 'r', width: 8, height: 8 },
          });
          expect(
            (await userB('POST', `/v1/embed/${id}/templates/${own.json.id}/render`, { body: {} })).status,
          ).toBe(200);
        });
      });

      describe('template routes', () => {
        let id: string;
        let session: ReturnType<typeof asSession>;
        beforeAll(async () => {
          id = (await createEmbed(server.base, ws.workspaceId)).id;
          session = asSession(server.base, await mint(server.base, id, 'u'));
        });

        it("answer the machine API's record plus document", async () => {
          const created = await session('POST', `/v1/embed/${id}/templates`, {
            body: { name: 'p', document: simpleDocument() },
          });
          expect([created.status, created.headers.get('etag')]).toEqual([201, '"1"']);
          const machine = await http(server.base, 'GET', `/v1/templates/${created.json.id}`, {
            headers: bearer(ws.key),
          });
          const opened = await session('GET', `/v1/embed/${id}/templates/${created.json.id}`);
          expect(Object.keys(opened.json).sort()).toEqual(Object.keys(machine.json).sort());
          expect(opened.json).toEqual(machine.json);
          expect(Object.keys(created.json).sort()).toEqual(Object.keys(machine.json).sort());
          const list = await session('GET', `/v1/embed/${id}/templates`);
          const { document: _document, ...record } = machine.json;
          expect(list.json.items).toEqual([record]);
          expect(list.json.nextCursor).toBeNull();
        });

        it('refuse a stale If-Match with 412 PRECONDITION_FAILED', async () => {
          const t = await session('POST', `/v1/embed/${id}/templates`, {
            body: { name: 'r', width: 8, height: 8 },
          });
          const path = `/v1/embed/${id}/templates/${t.json.id}`;
          const saved = await session('PUT', path, {
            body: { document: simpleDocument() },
            headers: { 'if-match': '"1"' },
          });
          expect([saved.status, saved.json.revision, saved.headers.get('etag')]).toEqual([200, 2, '"2"']);
          const stale = await session('PUT', path, {
            body: { document: simpleDocument() },
            headers: { 'if-match': '"1"' },
          });
          expect([stale.status, stale.json.error.code]).toEqual([412, 'PRECONDITION_FAILED']);
        });

        it('answer bad input with the machine API codes', async () => {
          const t = await session('POST', `/v1/embed/${id}/templates`, {
            body: { name: 'r', width: 8, height: 8 },
          });
          const badDoc = simpleDocument();
          (badDoc.pages[0]?.elements[0] as Record<string, unknown>).fill = 'nope';
          const json = { 'content-type': 'application/json' };
          const huge = { raw: `{"name":"${'x'.repeat(6 * 1024 * 1024)}"}`, headers: json };
          const cases: [string, string, Parameters<typeof http>[3], number, string][] = [
            ['POST', '', { raw: '{"name": ', headers: json }, 400, 'INVALID_JSON'],
            ['PUT', `/${t.json.id}`, { raw: '{"document": ', headers: json }, 400, 'INVALID_JSON'],
            ['POST', '', { body: { name: 'x', document: badDoc } }, 400, 'VALIDATION_FAILED'],
            ['PUT', `/${t.json.id}`, { body: { document: badDoc } }, 400, 'VALIDATION_FAILED'],
            ['POST', '', { body: { name: 'x', width: 1e9, height: 1 } }, 400, 'VALIDATION_FAILED'],
            [
              'PUT',
              `/${t.json.id}`,
              { body: { document: simpleDocument(), extra: 1 } },
              400,
              'VALIDATION_FAILED',
            ],
            ['POST', '', huge, 413, 'PAYLOAD_TOO_LARGE'],
            ['PUT', `/${t.json.id}`, huge, 413, 'PAYLOAD_TOO_LARGE'],
            [
              'POST',
              '',
              { raw: 'hi', headers: { 'content-type': 'text/plain' } },
              415,
              'UNSUPPORTED_MEDIA_TYPE',
            ],
            ['GET', '/tpl_000000000000000000000000', {}, 404, 'NOT_FOUND'],
            ['GET', '/..%2F..%2Fetc', {}, 404, 'NOT_FOUND'],
          ];
          for (const [method, rest, options, status, code] of cases) {
            const res = await session(method, `/v1/embed/${id}/templates${rest}`, options);
            expect([method, rest, res.status, res.json?.error?.code]).toEqual([method, rest, status, code]);
          }
        });
      });
    },
  );
}
