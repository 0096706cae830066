/**
 * The shared security suite: every route registered with API-key auth is driven with no key, a
 * malformed key, a revoked key, a suspended workspace, another workspace (resource and
 * X-Workspace-Id) and each missing scope. A new route without a sample here fails the suite.
 * The same routes take a person signed in to the console (cookie, CSRF header, X-Workspace-Id):
 * without the CSRF header it is no credential, and a workspace or resource not theirs is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/http/auth-hook.ts';
import { PNG_1X1, simpleDocument } from './fixtures/samples.ts';
import { type ConsolePerson, consolePerson } from './harness/console.ts';
import {
  ALL_SCOPES,
  admin,
  bearer,
  http,
  keyFor,
  startOrigin,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';

interface Sample {
  body?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
}

/** A request that would succeed for the resource owner, per route. */
const samples: Record<string, Sample> = {
  'GET /v1/templates': {},
  'POST /v1/templates': { body: { name: 'n', width: 10, height: 10 } },
  'GET /v1/templates/:id': {},
  'PUT /v1/templates/:id': { body: { document: simpleDocument() } },
  'PATCH /v1/templates/:id': { body: { name: 'renamed' } },
  'DELETE /v1/templates/:id': {},
  'POST /v1/templates/:id/render': { body: { format: 'png' } },
  'GET /v1/renders/:id': {},
  'GET /v1/renders': {},
  'GET /v1/usage': {},
  'GET /v1/assets': {},
  'POST /v1/assets': { raw: PNG_1X1, headers: { 'content-type': 'image/png' } },
  'GET /v1/assets/:id': {},
  // The test server allows private URLs: the owner's own asset's file, on loopback.
  'POST /v1/assets/from-url': { body: { url: 'OWNER_ASSET_URL' } },
  'DELETE /v1/assets/:id': {},
  'POST /v1/templates/:id/batches': { body: { rows: [{ name: 'a' }] } },
  'POST /v1/templates/:id/batches/csv': {
    raw: Buffer.from('name\nb\n'),
    headers: { 'content-type': 'text/csv' },
  },
  'GET /v1/batches/:id': {},
  'POST /v1/batches/:id/cancel': {},
  'GET /v1/batches/:id/files.zip': {},
  // Versions: the owner's template has version 1 and a draft changed since (createOwnerResources).
  'POST /v1/templates/:id/versions': { body: { note: 'second' } },
  'GET /v1/templates/:id/versions': {},
  'GET /v1/templates/:id/versions/:version': {},
  'POST /v1/templates/:id/versions/:version/rollback': {},
  'GET /v1/templates/:id/diff': {},
  'GET /v1/templates/:id/diff.png': {},
  'GET /v1/templates/:id/variables': {},
  'POST /v1/templates/:id/estimate': { body: { format: 'png', rows: [{ name: 'a' }] } },
  'POST /v1/templates/:id/preview': { body: { modifications: { name: 'a' } } },
  'POST /v1/templates/:id/preflight': { body: { rows: [{ name: 'a' }, { name: 'b' }] } },
  // The owner's workspace has a URL-signing secret (createOwnerResources).
  'POST /v1/templates/:id/signed-url': { body: { format: 'png', modifications: { name: 'a' } } },
};

/** POST routes that make nothing new, so answer 200 (not 201). */
const POST_OK = ['/render', '/cancel', '/rollback', '/estimate', '/signed-url', '/preview', '/preflight'];
const answersOk = (route: RegisteredRoute) => POST_OK.some((end) => route.url.endsWith(end));

let server: TestServer;
/** An image origin that answers late, so the owner's batch is still running when it is cancelled. */
let slowOrigin: { base: string; close(): Promise<void> };
let owner: { workspaceId: string; key: string; keyId: string };
let other: { workspaceId: string; key: string };
let suspendedKey: string;
let revokedKey: string;
const resourceIds: Record<string, string> = {};

function pathFor(route: RegisteredRoute): string {
  const kind = route.url.split('/')[2] ?? '';
  return route.url.replace(':id', resourceIds[kind] ?? 'missing').replace(':version', '1');
}

async function call(route: RegisteredRoute, headers: Record<string, string>) {
  const sample = samples[`${route.method} ${route.url}`] ?? {};
  return http(server.base, route.method, pathFor(route), {
    body:
      (sample.body as { url?: string } | undefined)?.url === 'OWNER_ASSET_URL'
        ? { url: resourceIds.assetUrl }
        : sample.body,
    raw: sample.raw,
    headers: { ...sample.headers, ...headers },
  });
}

beforeAll(async () => {
  slowOrigin = await startOrigin((_request, response) => {
    setTimeout(() => response.writeHead(404).end(), 1_500);
  });
  server = await startTestServer();
  // Every route of every sweep makes the owner's resources again, a render and a batch among them.
  owner = await workspaceWithKey(server.base, { credits: 10_000 });
  other = await workspaceWithKey(server.base);
  const suspended = await workspaceWithKey(server.base);
  suspendedKey = suspended.key;
  await admin(server.base, 'PATCH', `/workspaces/${suspended.workspaceId}`, { suspended: true });
  const revoked = await keyFor(server.base, owner.workspaceId, ALL_SCOPES);
  revokedKey = revoked.key;
  await admin(server.base, 'DELETE', `/api-keys/${revoked.id}`);
  await createOwnerResources();
});

/** A template, an asset and a render of the owner's, addressed by the routes' `:id`. */
async function createOwnerResources(): Promise<void> {
  const t = await http(server.base, 'POST', '/v1/templates', {
    body: { name: 't', document: simpleDocument() },
    headers: bearer(owner.key),
  });
  resourceIds.templates = t.json.id;
  await http(server.base, 'POST', `/v1/templates/${t.json.id}/versions`, {
    body: {},
    headers: bearer(owner.key),
  });
  const changed = simpleDocument();
  (changed.pages[0]?.elements[0] as { x: number }).x += 1;
  await http(server.base, 'PUT', `/v1/templates/${t.json.id}`, {
    body: { document: changed },
    headers: bearer(owner.key),
  });
  await admin(server.base, 'POST', `/workspaces/${owner.workspaceId}/url-signing-secrets`, {});
  const a = await http(server.base, 'POST', '/v1/assets', {
    raw: PNG_1X1,
    headers: { ...bearer(owner.key), 'content-type': 'image/png' },
  });
  resourceIds.assets = a.json.id;
  resourceIds.assetUrl = a.json.url;
  const r = await http(server.base, 'POST', `/v1/templates/${t.json.id}/render`, {
    body: {},
    headers: bearer(owner.key),
  });
  resourceIds.renders = r.json.id;
  const slow = simpleDocument();
  slow.pages[0]?.elements.push({
    id: 'img',
    type: 'image',
    x: 0,
    y: 0,
    width: 9,
    height: 9,
    src: `${slowOrigin.base}/late.png`,
  } as never);
  const slowTemplate = await http(server.base, 'POST', '/v1/templates', {
    body: { name: 'slow', document: slow },
    headers: bearer(owner.key),
  });
  const batch = await http(server.base, 'POST', `/v1/templates/${slowTemplate.json.id}/batches`, {
    body: { rows: [{ name: 'late' }] },
    headers: bearer(owner.key),
  });
  resourceIds.batches = batch.json.id;
}
afterAll(async () => {
  await server.close();
  await slowOrigin.close();
});

describe('the shared security suite', () => {
  it('covers every API-key route with a sample request', () => {
    const apiRoutes = server.routes.filter((r) => r.auth === 'apiKey');
    expect(apiRoutes.length).toBeGreaterThan(5);
    for (const route of apiRoutes)
      expect(samples, `sample for ${route.method} ${route.url}`).toHaveProperty([
        `${route.method} ${route.url}`,
      ]);
    for (const route of server.routes.filter((r) => r.url.startsWith('/v1/'))) {
      // signedUrl: the URL's signature; its cases (none, tampered, another workspace's key, revoked,
      // suspended) are in test/render-urls.test.ts.
      expect(
        ['apiKey', 'none', 'embedSession', 'oauth', 'signedUrl'],
        `${route.method} ${route.url}`,
      ).toContain(route.auth);
    }
  });

  it('answers every route without a key, or with a malformed or revoked one, 403 INVALID_API_KEY', async () => {
    for (const route of server.routes.filter((r) => r.auth === 'apiKey')) {
      for (const headers of <Record<string, string>[]>[
        {},
        bearer('nonsense'),
        { 'x-api-key': 'plt_short' },
        bearer(`plt_${'x'.repeat(40)}`),
        bearer(revokedKey),
        { authorization: 'Basic abc' },
      ]) {
        const res = await call(route, headers);
        expect([route.method, route.url, res.status, res.json?.error?.code]).toEqual([
          route.method,
          route.url,
          403,
          'INVALID_API_KEY',
        ]);
        expect(res.json.error.requestId).toMatch(/^req_/);
      }
    }
  });

  it('answers a suspended workspace 403 SUBSCRIPTION_SUSPENDED on every route', async () => {
    for (const route of server.routes.filter((r) => r.auth === 'apiKey')) {
      const res = await call(route, bearer(suspendedKey));
      expect([route.url, res.json?.error?.code]).toEqual([route.url, 'SUBSCRIPTION_SUSPENDED']);
    }
  });

  it('answers a named other workspace (X-Workspace-Id) 403 WORKSPACE_MISMATCH on every route', async () => {
    for (const route of server.routes.filter((r) => r.auth === 'apiKey')) {
      const res = await call(route, { ...bearer(owner.key), 'x-workspace-id': other.workspaceId });
      expect([route.url, res.status, res.json?.error?.code]).toEqual([route.url, 403, 'WORKSPACE_MISMATCH']);
    }
  });

  it("answers another workspace's resource 403 WORKSPACE_MISMATCH on every route that addresses one", async () => {
    for (const route of server.routes.filter((r) => r.auth === 'apiKey' && r.url.includes(':id'))) {
      const res = await call(route, bearer(other.key));
      expect([route.method, route.url, res.status, res.json?.error?.code]).toEqual([
        route.method,
        route.url,
        403,
        'WORKSPACE_MISMATCH',
      ]);
    }
  });

  it('answers each missing scope 403 INSUFFICIENT_SCOPE naming it, with no escalation', async () => {
    for (const route of server.routes.filter((r) => r.auth === 'apiKey')) {
      const scopes = ALL_SCOPES.filter((s) => s !== route.scope);
      const { key } = await keyFor(server.base, owner.workspaceId, scopes);
      const res = await call(route, { 'x-api-key': key });
      expect([route.url, res.status, res.json?.error?.code, res.json?.error?.details?.requiredScope]).toEqual(
        [route.url, 403, 'INSUFFICIENT_SCOPE', route.scope],
      );
    }
  });

  it('takes X-Api-Key when Authorization carries another scheme', async () => {
    const res = await http(server.base, 'GET', '/v1/templates', {
      headers: { authorization: 'Basic Zm9vOmJhcg==', 'x-api-key': owner.key },
    });
    expect(res.status).toBe(200);
  });

  it('accepts the owner key on every route and method (the samples are valid)', async () => {
    const expected: Record<string, number> = { GET: 200, PUT: 200, PATCH: 200, POST: 201, DELETE: 204 };
    for (const route of server.routes.filter((r) => r.auth === 'apiKey')) {
      // Fresh resources for each call, so a DELETE (or a save) leaves the next route its own.
      await createOwnerResources();
      const res = await call(route, bearer(owner.key));
      const status = answersOk(route) ? 200 : expected[route.method];
      expect([route.method, route.url, res.status]).toEqual([route.method, route.url, status]);
    }
  }, 120_000);

  it('guards the operator API with the admin token (401 UNAUTHORIZED otherwise)', async () => {
    for (const route of server.routes.filter((r) => r.auth === 'operator')) {
      const path = route.url.replace(':id', owner.workspaceId);
      for (const headers of [{}, bearer('wrong-token-wrong-token'), bearer(owner.key)]) {
        const res = await http(server.base, route.method, path, {
          headers,
          body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
        expect([route.url, res.status, res.json?.error?.code]).toEqual([route.url, 401, 'UNAUTHORIZED']);
      }
    }
  });
});

describe('the same routes for a person signed in to the console', () => {
  let ownerMember: ConsolePerson;
  let otherMember: ConsolePerson;
  let operator: ConsolePerson;
  const apiRoutes = () => server.routes.filter((r) => r.auth === 'apiKey');

  beforeAll(async () => {
    ownerMember = await consolePerson(server.base, { workspaceIds: [owner.workspaceId] });
    otherMember = await consolePerson(server.base, { workspaceIds: [other.workspaceId] });
    operator = await consolePerson(server.base, { operator: true });
  });

  it('accepts a member and an operator on every route and method, as the owner key', async () => {
    const expected: Record<string, number> = { GET: 200, PUT: 200, PATCH: 200, POST: 201, DELETE: 204 };
    for (const person of [ownerMember, operator]) {
      for (const route of apiRoutes()) {
        await createOwnerResources();
        const res = await call(route, person.v1(owner.workspaceId));
        const status = answersOk(route) ? 200 : expected[route.method];
        expect([route.method, route.url, res.status]).toEqual([route.method, route.url, status]);
      }
    }
  }, 120_000);

  it('is no credential without the CSRF header, or with a wrong one (403 INVALID_API_KEY)', async () => {
    for (const route of apiRoutes()) {
      for (const headers of <Record<string, string>[]>[
        { cookie: ownerMember.cookie, 'x-workspace-id': owner.workspaceId },
        { ...ownerMember.v1(owner.workspaceId), 'x-platen-csrf': 'forged' },
        { ...ownerMember.v1(owner.workspaceId), 'x-platen-csrf': otherMember.csrf },
      ]) {
        const res = await call(route, headers);
        expect([route.url, res.status, res.json?.error?.code]).toEqual([route.url, 403, 'INVALID_API_KEY']);
      }
    }
  });

  it('answers 404 to a member who names a workspace not theirs, or none, or reaches for its resources', async () => {
    for (const route of apiRoutes()) {
      for (const headers of [
        ownerMember.v1(other.workspaceId),
        otherMember.v1(owner.workspaceId),
        { cookie: ownerMember.cookie, 'x-platen-csrf': ownerMember.csrf },
      ]) {
        const res = await call(route, headers);
        expect([route.url, res.status, res.json?.error?.code]).toEqual([route.url, 404, 'NOT_FOUND']);
      }
    }
    for (const route of apiRoutes().filter((r) => r.url.includes(':id'))) {
      const res = await call(route, otherMember.v1(other.workspaceId));
      expect([route.method, route.url, res.status, res.json?.error?.code]).toEqual([
        route.method,
        route.url,
        404,
        'NOT_FOUND',
      ]);
    }
  });

  it('answers a suspended workspace 403 SUBSCRIPTION_SUSPENDED, as for its keys', async () => {
    const suspended = await workspaceWithKey(server.base);
    await admin(server.base, 'PATCH', `/workspaces/${suspended.workspaceId}`, { suspended: true });
    for (const route of apiRoutes()) {
      const res = await call(route, operator.v1(suspended.workspaceId));
      expect([route.url, res.json?.error?.code]).toEqual([route.url, 'SUBSCRIPTION_SUSPENDED']);
    }
  });

  it("opens the operator API to an operator's session only, with the CSRF header", async () => {
    const list = (headers: Record<string, string>) =>
      http(server.base, 'GET', '/admin/v1/workspaces', { headers });
    expect((await list(operator.change())).status).toBe(200);
    expect((await list({ cookie: operator.cookie })).json.error.code).toBe('UNAUTHORIZED');
    expect((await list(ownerMember.change())).json.error.code).toBe('UNAUTHORIZED');
  });
});
