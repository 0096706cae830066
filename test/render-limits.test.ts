/** Rate limiting of render requests per API key, and retention of rendered files. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const redisUrl = process.env.PLATEN_TEST_REDIS_URL;

const limiterBackends = [
  { name: 'memory', env: {} as Record<string, string>, skip: false as string | false },
  {
    name: 'redis',
    env: (redisUrl ? { PLATEN_REDIS_URL: redisUrl } : {}) as Record<string, string>,
    skip: redisUrl ? false : 'PLATEN_TEST_REDIS_URL not set',
  },
];

for (const limiter of limiterBackends) {
  describe.skipIf(limiter.skip)(
    `render rate limit (${limiter.name})${limiter.skip ? ` (skipped: ${limiter.skip})` : ''}`,
    () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer('sqlite', { PLATEN_RENDER_RATE_LIMIT: '3', ...limiter.env });
      });
      afterAll(() => server.close());

      it('sends RateLimit headers on every render response and 429 with Retry-After over the limit, per key', async () => {
        const { key, workspaceId } = await workspaceWithKey(server.base);
        const t = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 'r', document: simpleDocument() },
          headers: bearer(key),
        });
        const path = `/v1/templates/${t.json.id}/render`;
        const results = [];
        for (let i = 0; i < 4; i++)
          results.push(await http(server.base, 'POST', path, { body: {}, headers: bearer(key) }));
        expect(results.map((r) => r.status)).toEqual([200, 200, 200, 429]);
        expect(results.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
        for (const r of results) expect(r.headers.get('ratelimit-limit')).toBe('3');
        const limited = results[3];
        expect(limited?.json.error.code).toBe('RATE_LIMITED');
        expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        // Another key of the same workspace has its own bucket.
        const other = await http(server.base, 'POST', `/admin/v1/workspaces/${workspaceId}/api-keys`, {
          body: { scopes: ['render:write'] },
          headers: bearer('test-admin-token-0123456789'),
        });
        expect(
          (await http(server.base, 'POST', path, { body: {}, headers: bearer(other.json.key) })).status,
        ).toBe(200);
      });

      it('counts free previews against the same limit, so they cannot render without bound', async () => {
        const { key } = await workspaceWithKey(server.base);
        const t = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 'p', document: simpleDocument() },
          headers: bearer(key),
        });
        const preview = () =>
          http(server.base, 'POST', `/v1/templates/${t.json.id}/preview`, { body: {}, headers: bearer(key) });
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await preview()).status);
        expect(statuses).toEqual([200, 200, 200, 429]);
        // The paid route shares the bucket: it is empty for this key now.
        const render = await http(server.base, 'POST', `/v1/templates/${t.json.id}/render`, {
          body: {},
          headers: bearer(key),
        });
        expect(render.status).toBe(429);
      });
    },
  );
}

describe('render retention', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { PLATEN_RENDER_RETENTION_DAYS: '7' });
  });
  afterAll(() => server.close());

  it('removes old files; the render shows expired and no longer counts as an earlier render', async () => {
    const { key } = await workspaceWithKey(server.base);
    const t = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 'old', document: simpleDocument() },
      headers: bearer(key),
    });
    const path = `/v1/templates/${t.json.id}/render`;
    const first = await http(server.base, 'POST', path, { body: {}, headers: bearer(key) });
    expect(await server.services.maintenance.applyRetention(new Date(Date.now() + 6 * 86_400_000))).toBe(0);
    expect(await server.services.maintenance.applyRetention(new Date(Date.now() + 8 * 86_400_000))).toBe(1);
    expect((await fetch(first.json.url)).status).toBe(404);
    const shown = await http(server.base, 'GET', `/v1/renders/${first.json.id}`, { headers: bearer(key) });
    expect(shown.json).toMatchObject({ id: first.json.id, url: null, expired: true });
    const again = await http(server.base, 'POST', path, { body: {}, headers: bearer(key) });
    expect(again.json.credits.charged).toBe(1);
    expect(again.json.id).not.toBe(first.json.id);
  });
});
