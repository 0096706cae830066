/**
 * Tenant isolation through the embed routes: end-users of one multi-tenant embed, of a second embed
 * of the same workspace and of an embed of another workspace never see or change each other's
 * templates or assets; shared templates are read-only; the machine API sees everything of its
 * workspace; a single-tenant embed's sessions share the workspace's templates. Then every way a
 * session token can be bad, and every embed change made after minting, on every session route.
 * Every `embedSession` route must have a check here (a new route without one fails the suite).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEJAVU_TTF, PNG_1X1, simpleDocument } from './fixtures/samples.ts';
import { backends } from './harness/backends.ts';
import {
  asSession,
  callRoute,
  createEmbed,
  documentWithImage,
  embedRoutes,
  embedSamples,
  forgeToken,
  mint,
  patchEmbed,
  randomKey,
  routeName,
  sweep,
  sweepExpect,
  tamper,
  uploadPng,
} from './harness/embeds.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

type Actor = 'A' | 'B' | 'C' | 'D';
/** A and B: users of E1; C: user "alice" (A's user id) of E2, same workspace; D: "alice" of E3, another workspace. */
const ACTORS: Actor[] = ['A', 'B', 'C', 'D'];

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `embed isolation on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      let ws1: { workspaceId: string; key: string };
      let ws2: { workspaceId: string; key: string };
      const embedOf = {} as Record<Actor, string>;
      const tokenOf = {} as Record<Actor, string>;
      /** Templates: each actor's own, a shared and an unshared workspace template of ws1. */
      const tpl = {} as Record<Actor | 'shared' | 'workspace', string>;
      const machine = (method: string, path: string, options = {}) =>
        http(server.base, method, path, { ...options, headers: bearer(ws1.key) });
      const as = (actor: Actor) => asSession(server.base, tokenOf[actor]);
      const embedPath = (actor: Actor, rest = '') => `/v1/embed/${embedOf[actor]}${rest}`;

      beforeAll(async () => {
        server = await startTestServer(backend.name);
        ws1 = await workspaceWithKey(server.base);
        ws2 = await workspaceWithKey(server.base);
        const e1 = (await createEmbed(server.base, ws1.workspaceId)).id;
        embedOf.A = e1;
        embedOf.B = e1;
        embedOf.C = (await createEmbed(server.base, ws1.workspaceId)).id;
        embedOf.D = (await createEmbed(server.base, ws2.workspaceId)).id;
        const userOf: Record<Actor, string> = { A: 'alice', B: 'bob', C: 'alice', D: 'alice' };
        for (const actor of ACTORS) {
          tokenOf[actor] = await mint(server.base, embedOf[actor], userOf[actor]);
          const created = await as(actor)('POST', embedPath(actor, '/templates'), {
            body: { name: `own ${actor}`, document: simpleDocument() },
          });
          expect(created.status).toBe(201);
          tpl[actor] = created.json.id;
        }
        const shared = await machine('POST', '/v1/templates', {
          body: { name: 'shared', width: 40, height: 30 },
        });
        tpl.shared = shared.json.id;
        expect(
          (await machine('PATCH', `/v1/templates/${tpl.shared}`, { body: { shared: true } })).status,
        ).toBe(200);
        tpl.workspace = (
          await machine('POST', '/v1/templates', { body: { name: 'ws', width: 40, height: 30 } })
        ).json.id;
      });
      afterAll(() => server.close());

      /** What `actor` must get on template `target` by a route that `writes` or not: [status, error code or null]. */
      function expected(actor: Actor, target: keyof typeof tpl, writes: boolean): [number, string | null] {
        if (target === actor) return [200, null];
        if (target === 'shared' && actor !== 'D') return writes ? [403, 'FORBIDDEN'] : [200, null];
        return [404, 'NOT_FOUND'];
      }

      /** Every template published as it is now: version routes then read `latest`, and publish answers 200. */
      async function publishAll(): Promise<void> {
        for (const target of Object.keys(tpl) as (keyof typeof tpl)[]) {
          const key = target === 'D' ? ws2.key : ws1.key;
          const res = await http(server.base, 'POST', `/v1/templates/${tpl[target]}/versions`, {
            headers: bearer(key),
          });
          expect(res.status, target).toBeLessThan(300);
        }
      }

      /** The matrix on a version route: reads as GET, publish and rollback as saves. */
      async function versionMatrix(method: 'GET' | 'POST', rest: string): Promise<void> {
        await publishAll();
        await templateMatrix(
          { method, url: `/v1/embed/:embedId/templates/:templateId${rest}` },
          method === 'POST',
        );
      }

      async function templateMatrix(
        route: { method: string; url: string },
        writes = route.method === 'PUT',
      ): Promise<void> {
        const wrong: string[] = [];
        for (const actor of ACTORS) {
          for (const target of Object.keys(tpl) as (keyof typeof tpl)[]) {
            const res = await callRoute(
              server,
              { ...route, auth: 'embedSession', scope: null },
              { embedId: embedOf[actor], templateId: tpl[target] },
              bearer(tokenOf[actor]),
            );
            const want = expected(actor, target, writes);
            const got = [res.status, res.json?.error?.code ?? null];
            if (JSON.stringify(got) !== JSON.stringify(want))
              wrong.push(`${actor} → ${target}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
          }
        }
        expect(wrong, `${route.method} ${route.url}`).toEqual([]);
      }

      /** One check per embed-session route; the routes under `:templateId` run the matrix. */
      const checks: Record<string, () => Promise<void>> = {
        'GET /v1/embed/:embedId/templates': async () => {
          const names = async (actor: Actor) =>
            ((await as(actor)('GET', embedPath(actor, '/templates'))).json.items as { id: string }[])
              .map((t) => t.id)
              .sort();
          for (const actor of ACTORS) {
            const want = actor === 'D' ? [tpl.D] : [tpl[actor], tpl.shared];
            expect(await names(actor), actor).toEqual(want.sort());
          }
        },
        'POST /v1/embed/:embedId/templates': async () => {
          // Sharing is the workspace's decision, not one end-user's.
          const sharing = await as('A')('POST', embedPath('A', '/templates'), {
            body: { name: 'private', width: 10, height: 10, shared: true },
          });
          expect([sharing.status, sharing.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
          const created = await as('A')('POST', embedPath('A', '/templates'), {
            body: { name: 'private', width: 10, height: 10 },
          });
          expect(created.json).toMatchObject({ ownerUserId: 'alice', shared: false });
          const id = created.json.id;
          expect((await as('A')('GET', embedPath('A', `/templates/${id}`))).status).toBe(200);
          for (const actor of ['B', 'C', 'D'] as const) {
            const res = await as(actor)('GET', embedPath(actor, `/templates/${id}`));
            expect([actor, res.status, res.json.error.code]).toEqual([actor, 404, 'NOT_FOUND']);
          }
          expect((await machine('GET', `/v1/templates/${id}`)).json.ownerUserId).toBe('alice');
        },
        'GET /v1/embed/:embedId/templates/:templateId': () =>
          templateMatrix({ method: 'GET', url: '/v1/embed/:embedId/templates/:templateId' }),
        'PUT /v1/embed/:embedId/templates/:templateId': async () => {
          const before = await machine('GET', '/v1/templates?limit=100');
          await templateMatrix({ method: 'PUT', url: '/v1/embed/:embedId/templates/:templateId' });
          // Nothing but each actor's own template changed.
          const after = await machine('GET', '/v1/templates?limit=100');
          const revisions = (page: { items: { id: string; revision: number }[] }) =>
            Object.fromEntries(page.items.map((t) => [t.id, t.revision]));
          const changed = Object.entries(revisions(after.json))
            .filter(([id, revision]) => revisions(before.json)[id] !== revision)
            .map(([id]) => id);
          expect(changed.sort()).toEqual([tpl.A, tpl.B, tpl.C].sort());
        },
        'POST /v1/embed/:embedId/templates/:templateId/render': () =>
          templateMatrix({ method: 'POST', url: '/v1/embed/:embedId/templates/:templateId/render' }),
        'POST /v1/embed/:embedId/templates/:templateId/preflight': () =>
          templateMatrix({ method: 'POST', url: '/v1/embed/:embedId/templates/:templateId/preflight' }),
        'GET /v1/embed/:embedId/templates/:templateId/versions': () => versionMatrix('GET', '/versions'),
        'POST /v1/embed/:embedId/templates/:templateId/versions': () => versionMatrix('POST', '/versions'),
        'GET /v1/embed/:embedId/templates/:templateId/versions/:version': () =>
          versionMatrix('GET', '/versions/:version'),
        'POST /v1/embed/:embedId/templates/:templateId/versions/:version/rollback': () =>
          versionMatrix('POST', '/versions/:version/rollback'),
        'GET /v1/embed/:embedId/templates/:templateId/diff': () => versionMatrix('GET', '/diff'),
        'GET /v1/embed/:embedId/templates/:templateId/diff.png': () => versionMatrix('GET', '/diff.png'),
        'POST /v1/embed/:embedId/assets': async () => {
          const up = await uploadPng(server.base, embedPath('A', '/assets'), bearer(tokenOf.A));
          expect(up.status).toBe(201);
          const listed = await machine('GET', '/v1/assets?limit=100');
          expect(listed.json.items.map((a: { id: string }) => a.id)).toContain(up.json.id);
          const other = await uploadPng(server.base, embedPath('D', '/assets'), bearer(tokenOf.D));
          expect((await machine('GET', `/v1/assets/${other.json.id}`)).json.error.code).toBe(
            'WORKSPACE_MISMATCH',
          );
        },
        'GET /v1/embed/:embedId/assets': async () => {
          const ids = {} as Record<Actor | 'workspace', string>;
          for (const actor of ACTORS)
            ids[actor] = (
              await uploadPng(server.base, embedPath(actor, '/assets'), bearer(tokenOf[actor]))
            ).json.id;
          ids.workspace = (await uploadPng(server.base, '/v1/assets', bearer(ws1.key))).json.id;
          const seen = async (actor: Actor) =>
            new Set(
              (
                (await as(actor)('GET', embedPath(actor, '/assets?limit=100'))).json.items as { id: string }[]
              ).map((a) => a.id),
            );
          for (const actor of ACTORS) {
            const visible = await seen(actor);
            const want = (['A', 'B', 'C', 'D', 'workspace'] as const).filter(
              (owner) => owner === actor || (owner === 'workspace' && actor !== 'D'),
            );
            const got = (['A', 'B', 'C', 'D', 'workspace'] as const).filter((owner) =>
              visible.has(ids[owner]),
            );
            expect([actor, got]).toEqual([actor, want]);
          }
          const all = (await machine('GET', '/v1/assets?limit=100')).json.items.map(
            (a: { id: string }) => a.id,
          );
          expect(all).toEqual(expect.arrayContaining([ids.A, ids.B, ids.C, ids.workspace]));
          expect(all).not.toContain(ids.D);
        },
        'GET /v1/embed/:embedId/images': async () => {
          const ids = {} as Record<Actor | 'workspace', string>;
          for (const actor of ACTORS)
            ids[actor] = (
              await uploadPng(server.base, embedPath(actor, '/assets'), bearer(tokenOf[actor]))
            ).json.id;
          ids.workspace = (await uploadPng(server.base, '/v1/assets', bearer(ws1.key))).json.id;
          for (const actor of ACTORS) {
            const got = [];
            for (const owner of ['A', 'B', 'C', 'D', 'workspace'] as const) {
              const src = encodeURIComponent(`asset:${ids[owner]}`);
              const res = await as(actor)('GET', embedPath(actor, `/images?src=${src}`));
              if (res.status === 200) {
                expect(res.headers.get('content-type')).toBe('image/png');
                expect(res.bytes.equals(Buffer.from(PNG_1X1))).toBe(true);
                got.push(owner);
              } else expect([res.status, res.json.error.code]).toEqual([404, 'NOT_FOUND']);
            }
            const want = (['A', 'B', 'C', 'D', 'workspace'] as const).filter(
              (owner) => owner === actor || (owner === 'workspace' && actor !== 'D'),
            );
            expect([actor, got]).toEqual([actor, want]);
          }
        },
        'GET /v1/embed/:embedId/fonts': async () => {
          const upload = (path: string, token: string, family: string) =>
            http(server.base, 'POST', `${path}?family=${encodeURIComponent(family)}`, {
              raw: DEJAVU_TTF(),
              headers: { ...bearer(token), 'content-type': 'font/ttf' },
            });
          for (const actor of ACTORS)
            expect((await upload(embedPath(actor, '/assets'), tokenOf[actor], `Font ${actor}`)).status).toBe(
              201,
            );
          expect((await upload('/v1/assets', ws1.key, 'Font workspace')).status).toBe(201);
          for (const actor of ACTORS) {
            const res = await as(actor)('GET', embedPath(actor, '/fonts'));
            expect(res.status).toBe(200);
            const families = (res.json.items as { family: string; url: string }[])
              .map((font) => font.family)
              .filter((family) => family.startsWith('Font '))
              .sort();
            const want = actor === 'D' ? ['Font D'] : ['Font workspace', `Font ${actor}`].sort();
            expect([actor, families]).toEqual([actor, want]);
          }
        },
      };

      it('has an isolation check for every embed-session route', () => {
        const routes = embedRoutes(server).map(routeName);
        expect(routes.length).toBeGreaterThanOrEqual(7);
        for (const name of routes) {
          expect(checks, name).toHaveProperty([name]);
          expect(embedSamples, name).toHaveProperty([name]);
        }
      });

      for (const name of Object.keys(checks)) it(`keeps tenants apart on ${name}`, () => checks[name]?.());

      it('lets the machine API see and change every template of its workspace', async () => {
        const items = (await machine('GET', '/v1/templates?limit=100')).json.items as { id: string }[];
        const ids = items.map((t) => t.id);
        expect(ids).toEqual(expect.arrayContaining([tpl.A, tpl.B, tpl.C, tpl.shared, tpl.workspace]));
        expect(ids).not.toContain(tpl.D);
        const b = await machine('PUT', `/v1/templates/${tpl.B}`, { body: { document: simpleDocument('x') } });
        expect([b.status, b.json.ownerUserId]).toEqual([200, 'bob']);
      });

      it("never lets a render use another end-user's asset, and does not reveal that it exists", async () => {
        const alices = (await uploadPng(server.base, embedPath('A', '/assets'), bearer(tokenOf.A))).json.id;
        const renderAs = async (actor: Actor, src: string) => {
          const created = await as(actor)('POST', embedPath(actor, '/templates'), {
            body: { name: 'img', document: documentWithImage(src) },
          });
          return as(actor)('POST', embedPath(actor, `/templates/${created.json.id}/render`), { body: {} });
        };
        expect((await renderAs('A', `asset:${alices}`)).status).toBe(200);
        const balance = async () =>
          (await admin(server.base, 'GET', `/workspaces/${ws1.workspaceId}`)).json.creditBalance;
        const before = await balance();
        const missing = 'ast_000000000000000000000000';
        for (const actor of ['B', 'C'] as const) {
          const stolen = await renderAs(actor, `asset:${alices}`);
          const absent = await renderAs(actor, `asset:${missing}`);
          expect([stolen.status, stolen.json.error.code]).toEqual([422, 'RENDER_FAILED']);
          const scrub = (r: typeof stolen) =>
            JSON.stringify(r.json.error.details).replaceAll(alices, 'ID').replaceAll(missing, 'ID');
          expect(scrub(stolen)).toBe(scrub(absent));
        }
        expect(await balance()).toBe(before);
        // Nor through modifications naming it.
        const own = await as('B')('POST', embedPath('B', '/templates'), {
          body: { name: 'mod', document: documentWithImage(`asset:${missing}`) },
        });
        const modified = await as('B')('POST', embedPath('B', `/templates/${own.json.id}/render`), {
          body: { modifications: { photo: `asset:${alices}` } },
        });
        expect([modified.status, modified.json.error?.code]).toEqual([422, 'RENDER_FAILED']);
      });

      it('never replays a render made with assets the session may not use (identical-render cache)', async () => {
        const alices = (await uploadPng(server.base, embedPath('A', '/assets'), bearer(tokenOf.A))).json.id;
        const created = await machine('POST', '/v1/templates', {
          body: { name: 'shared img', document: documentWithImage(`asset:${alices}`), shared: true },
        });
        await machine('PATCH', `/v1/templates/${created.json.id}`, { body: { shared: true } });
        const first = await as('A')('POST', embedPath('A', `/templates/${created.json.id}/render`), {
          body: {},
        });
        expect(first.status).toBe(200);
        const bobs = await as('B')('POST', embedPath('B', `/templates/${created.json.id}/render`), {
          body: {},
        });
        expect(bobs.json.url ?? null).not.toBe(first.json.url);
      });

      describe('session tokens, and embed changes after minting', () => {
        let embedId: string;
        let token: string;
        let templateId: string;
        const swept = (headers: Record<string, string>) => sweep(server, { embedId, templateId }, headers);
        const healthy = () => sweepExpect(server);
        const everywhere = (status: number, code: string) => sweepExpect(server, [status, code]);
        const forge = (claims: { workspaceId?: string; expiresInSeconds?: number; key?: Uint8Array }) =>
          forgeToken(server, { embedId, workspaceId: ws1.workspaceId, userId: 'carol', ...claims });

        beforeAll(async () => {
          embedId = (await createEmbed(server.base, ws1.workspaceId)).id;
          token = await mint(server.base, embedId, 'carol');
          const created = await asSession(server.base, token)('POST', `/v1/embed/${embedId}/templates`, {
            body: { name: 'carol', document: simpleDocument() },
          });
          templateId = created.json.id;
          // The history routes read its `latest` version; the sweeps' save (the same document) keeps the
          // draft equal to it, so their publish answers that version, 200.
          const published = await asSession(server.base, token)(
            'POST',
            `/v1/embed/${embedId}/templates/${templateId}/versions`,
          );
          expect(published.status).toBe(201);
        });

        it('accepts the genuine token, and a faithfully forged one, on every route', async () => {
          expect(await swept(bearer(token))).toEqual(healthy());
          expect(await swept(bearer(await forge({})))).toEqual(healthy());
        });

        it('answers a missing, garbled, expired, tampered, re-signed or misdirected token 401 INVALID_SESSION', async () => {
          const payload = token.split('.')[1];
          const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
          const bad: [string, Record<string, string>][] = [
            ['none', {}],
            ['garbage', bearer('garbage')],
            ['basic scheme', { authorization: `Basic ${token}` }],
            ['api key', bearer(ws1.key)],
            ['expired', bearer(await forge({ expiresInSeconds: -5 }))],
            ['tampered', bearer(tamper(token))],
            ['other key', bearer(await forge({ key: randomKey() }))],
            ['alg none', bearer(unsigned)],
            ['other embed, same workspace', bearer(tokenOf.A)],
            ['other embed, other workspace, same user id', bearer(tokenOf.D)],
            ['other workspace claim', bearer(await forge({ workspaceId: ws2.workspaceId }))],
            ['over-long', bearer(`${token}${'a'.repeat(5000)}`)],
          ];
          for (const [name, headers] of bad)
            expect([name, await swept(headers)]).toEqual([name, everywhere(401, 'INVALID_SESSION')]);
        });

        it('answers every route 403 EMBED_DISABLED once the embed is disabled, and recovers', async () => {
          await patchEmbed(server.base, embedId, { enabled: false });
          expect(await swept(bearer(token))).toEqual(everywhere(403, 'EMBED_DISABLED'));
          await patchEmbed(server.base, embedId, { enabled: true });
          expect(await swept(bearer(token))).toEqual(healthy());
        });

        it('answers every route 403 SUBSCRIPTION_SUSPENDED once the workspace is suspended', async () => {
          await admin(server.base, 'PATCH', `/workspaces/${ws1.workspaceId}`, { suspended: true });
          const suspended = await swept(bearer(token));
          await admin(server.base, 'PATCH', `/workspaces/${ws1.workspaceId}`, { suspended: false });
          expect(suspended).toEqual(everywhere(403, 'SUBSCRIPTION_SUSPENDED'));
        });

        it('applies the downloads and asset picker toggles at the next request', async () => {
          await patchEmbed(server.base, embedId, { downloadsEnabled: false });
          expect(await swept(bearer(token))).toEqual(
            sweepExpect(server, {
              'POST /v1/embed/:embedId/templates/:templateId/render': [
                403,
                'INSUFFICIENT_SCOPE',
                'render:write',
              ],
            }),
          );
          await patchEmbed(server.base, embedId, { downloadsEnabled: true, assetPickerEnabled: false });
          expect(await swept(bearer(token))).toEqual(
            sweepExpect(server, {
              'GET /v1/embed/:embedId/assets': [403, 'INSUFFICIENT_SCOPE', 'asset:read'],
              'POST /v1/embed/:embedId/assets': [403, 'INSUFFICIENT_SCOPE', 'asset:write'],
            }),
          );
          await patchEmbed(server.base, embedId, { assetPickerEnabled: true });
          expect(await swept(bearer(token))).toEqual(healthy());
        });

        it('applies a multi-tenant flip at the next request, both ways', async () => {
          const carol = asSession(server.base, token);
          const open = async (id: string) =>
            (await carol('GET', `/v1/embed/${embedId}/templates/${id}`)).status;
          expect(await open(tpl.workspace)).toBe(404);
          await expect(mint(server.base, embedId)).rejects.toThrow(/400/);
          await patchEmbed(server.base, embedId, { multiTenant: false });
          const anonymous = await mint(server.base, embedId);
          expect(await open(tpl.workspace)).toBe(200);
          const team = await carol('POST', `/v1/embed/${embedId}/templates`, {
            body: { name: 't', width: 5, height: 5 },
          });
          expect(team.json.ownerUserId).toBeNull();
          // A single-tenant session acts for the workspace's own templates: an end-user's private one
          // (made while the embed was multi-tenant) is not among them.
          expect(await open(templateId)).toBe(404);
          await patchEmbed(server.base, embedId, { multiTenant: true });
          expect([await open(tpl.workspace), await open(team.json.id), await open(templateId)]).toEqual([
            404, 404, 200,
          ]);
          // A session minted without a user names nobody to isolate once the embed is multi-tenant.
          expect(await swept(bearer(anonymous))).toEqual(everywhere(401, 'INVALID_SESSION'));
        });

        it('ends every session when the embed is deleted: 401 with a token, 404 without', async () => {
          expect((await admin(server.base, 'DELETE', `/embeds/${embedId}`)).status).toBe(204);
          expect(await swept(bearer(token))).toEqual(everywhere(401, 'INVALID_SESSION'));
          const info = await http(server.base, 'GET', `/v1/embed/${embedId}`);
          expect([info.status, info.json.error.code]).toEqual([404, 'NOT_FOUND']);
          const minted = await http(server.base, 'POST', `/v1/embed/${embedId}/session`, {
            body: { userId: 'c' },
          });
          expect([minted.status, minted.json.error.code]).toEqual([404, 'NOT_FOUND']);
          const kept = await machine('GET', `/v1/templates/${templateId}`);
          expect([kept.status, kept.json.ownerUserId]).toEqual([200, 'carol']);
        });
      });

      describe('an embed without multi-tenant data', () => {
        let embedId: string;
        beforeAll(async () => {
          embedId = (await createEmbed(server.base, ws1.workspaceId, { multiTenant: false })).id;
        });

        it("makes templates created through it the workspace's, editable by every session", async () => {
          const [x, y, none] = await Promise.all([
            mint(server.base, embedId, 'x'),
            mint(server.base, embedId, 'y'),
            mint(server.base, embedId),
          ]);
          const created = await asSession(server.base, x)('POST', `/v1/embed/${embedId}/templates`, {
            body: { name: 'team', width: 20, height: 20 },
          });
          expect(created.json).toMatchObject({ ownerUserId: null });
          let revision = 1;
          for (const token of [y, none, x]) {
            const session = asSession(server.base, token);
            const saved = await session('PUT', `/v1/embed/${embedId}/templates/${created.json.id}`, {
              body: { document: simpleDocument(`by ${revision}`) },
            });
            expect([saved.status, saved.json.revision]).toEqual([200, ++revision]);
            const list = await session('GET', `/v1/embed/${embedId}/templates?limit=100`);
            expect(list.json.items.map((t: { id: string }) => t.id)).toEqual(
              expect.arrayContaining([created.json.id, tpl.workspace, tpl.shared]),
            );
          }
          const asset = await uploadPng(server.base, `/v1/embed/${embedId}/assets`, bearer(none));
          const visible = await asSession(server.base, y)('GET', `/v1/embed/${embedId}/assets?limit=100`);
          expect(visible.json.items.map((a: { id: string }) => a.id)).toContain(asset.json.id);
          expect((await machine('GET', `/v1/templates/${created.json.id}`)).json.ownerUserId).toBeNull();
        });

        it("acts for the workspace's own templates and assets only, never end-users' private ones", async () => {
          const session = asSession(server.base, await mint(server.base, embedId, 'alice'));
          const list = await session('GET', `/v1/embed/${embedId}/templates?limit=100`);
          const ids = list.json.items.map((t: { id: string }) => t.id);
          expect(ids).toEqual(expect.arrayContaining([tpl.workspace, tpl.shared]));
          for (const actor of ACTORS) {
            expect(ids).not.toContain(tpl[actor]);
            const read = await session('GET', `/v1/embed/${embedId}/templates/${tpl[actor]}`);
            expect([actor, read.status, read.json.error?.code]).toEqual([actor, 404, 'NOT_FOUND']);
          }
          const alices = await uploadPng(server.base, embedPath('A', '/assets'), bearer(tokenOf.A));
          const assets = await session('GET', `/v1/embed/${embedId}/assets?limit=100`);
          expect(assets.json.items.map((a: { id: string }) => a.id)).not.toContain(alices.json.id);
        });
      });
    },
  );
}
