/**
 * Signed render URLs over HTTP, on SQLite and PostgreSQL: the first GET renders and charges, the
 * same URL again is the same file for free (ETag, 304), any changed byte of the query is 403, and
 * expiry, rotation with its grace, revocation, the render cap (under concurrency too), a deleted
 * template, a suspended workspace and bad parameters answer their codes without charging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUrl } from '../src/auth/index.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { backends } from './harness/backends.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const GRACE_SECONDS = 2;

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `signed render URLs on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(backend.name, {
          PLATEN_URL_SECRET_GRACE_SECONDS: String(GRACE_SECONDS),
          PLATEN_RENDER_RATE_LIMIT: '0',
        });
      });
      afterAll(() => server.close());

      /** A workspace with `credits`, a template and a URL-signing secret. */
      async function setup(credits = 10, secretBody: object = {}) {
        const { workspaceId, key } = await workspaceWithKey(server.base, { credits });
        const template = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 't', document: simpleDocument() },
          headers: bearer(key),
        });
        const secret = await admin(
          server.base,
          'POST',
          `/workspaces/${workspaceId}/url-signing-secrets`,
          secretBody,
        );
        expect(secret.status).toBe(201);
        const sign = (params: Record<string, string>, format = 'png', key2 = secret.json.secret as string) =>
          signUrl(server.base, `/v1/templates/${template.json.id}/image.${format}`, params, key2);
        const ledger = async () =>
          (await admin(server.base, 'GET', `/workspaces/${workspaceId}/ledger`)).json.items.map(
            (entry: { delta: number }) => entry.delta,
          );
        return {
          workspaceId,
          key,
          templateId: template.json.id as string,
          secret: secret.json,
          sign,
          ledger,
        };
      }

      const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
      const codeOf = async (response: Response) =>
        ((await response.json()) as { error: { code: string } }).error.code;

      it('renders and charges once; the same URL is the same file for free, with caching headers and 304', async () => {
        const { sign, ledger, secret } = await setup();
        const url = sign({ name: 'World' });
        const first = await get(url);
        expect(first.status).toBe(200);
        expect(first.headers.get('content-type')).toBe('image/png');
        expect(first.headers.get('cache-control')).toBe('public, max-age=31536000');
        const etag = first.headers.get('etag') ?? '';
        expect(etag).toMatch(/^"rnd_[0-9A-Za-z]+"$/);
        const bytes = Buffer.from(await first.arrayBuffer());
        expect(bytes.subarray(1, 4).toString()).toBe('PNG');
        const again = await get(url);
        expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
        expect(again.headers.get('etag')).toBe(etag);
        const revalidated = await get(url, { 'if-none-match': `W/${etag}, "other"` });
        expect(revalidated.status).toBe(304);
        expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
        expect(await ledger()).toEqual([10, -1]);
        // The parameters' order is not part of what is signed.
        const [path, query] = url.split('?');
        const reordered = `${path}?${(query ?? '').split('&').reverse().join('&')}`;
        expect((await get(reordered)).status).toBe(200);
        // The listing shows usage, never the key.
        const listed = await admin(
          server.base,
          'GET',
          `/workspaces/${secret.workspaceId}/url-signing-secrets`,
        );
        expect(listed.json.items).toEqual([
          expect.objectContaining({ id: secret.id, renders: 1, renderCap: null }),
        ]);
        expect(JSON.stringify(listed.json)).not.toContain(secret.secret);
      });

      it('answers 403 to any changed byte of the query, to no signature and to another workspace’s key', async () => {
        const { sign, ledger } = await setup();
        const url = sign({ name: 'Ada', scale: '2', exp: String(Math.floor(Date.now() / 1000) + 3600) });
        const queryStart = url.indexOf('?') + 1;
        const statuses = new Set<number>();
        const codes = new Set<string>();
        for (let i = queryStart; i < url.length; i++) {
          const char = url[i] ?? '';
          const changed = `${url.slice(0, i)}${char === 'a' ? 'b' : 'a'}${url.slice(i + 1)}`;
          const response = await get(changed);
          statuses.add(response.status);
          codes.add(await codeOf(response));
        }
        expect([...statuses]).toEqual([403]);
        expect([...codes]).toEqual(['INVALID_SIGNATURE']);
        expect(await codeOf(await get(url.replace(/&sig=[0-9a-f]+/, '')))).toBe('INVALID_SIGNATURE');
        expect(await codeOf(await get(`${url}&name=Eve`))).toBe('INVALID_SIGNATURE');
        const stranger = await setup();
        const forged = sign({ name: 'Ada' }, 'png', stranger.secret.secret);
        expect(await codeOf(await get(forged))).toBe('INVALID_SIGNATURE');
        expect(await ledger()).toEqual([10]);
      });

      it('enforces exp, and caches a URL that expires no longer than it lives', async () => {
        const { sign, ledger } = await setup();
        const past = sign({ name: 'x', exp: String(Math.floor(Date.now() / 1000) - 1) });
        const expired = await get(past);
        expect(expired.status).toBe(403);
        expect(await codeOf(expired)).toBe('URL_EXPIRED');
        const soon = await get(sign({ name: 'x', exp: String(Math.floor(Date.now() / 1000) + 600) }));
        expect(soon.status).toBe(200);
        const maxAge = Number(/max-age=(\d+)/.exec(soon.headers.get('cache-control') ?? '')?.[1]);
        expect(maxAge).toBeGreaterThan(590);
        expect(maxAge).toBeLessThanOrEqual(600);
        expect(await codeOf(await get(sign({ name: 'x', exp: 'tomorrow' })))).toBe('VALIDATION_FAILED');
        expect(await ledger()).toEqual([10, -1]);
      });

      it('keeps the previous key valid for the grace after a rotation; a revoked secret signs nothing', async () => {
        const { sign, secret } = await setup();
        const old = sign({ name: 'before' });
        const rotated = await admin(server.base, 'POST', `/url-signing-secrets/${secret.id}/rotate`);
        expect(rotated.status).toBe(200);
        expect(rotated.json.secret).not.toBe(secret.secret);
        expect(Date.parse(rotated.json.previousValidUntil)).toBeGreaterThan(Date.now());
        expect((await get(old)).status).toBe(200);
        expect((await get(sign({ name: 'after' }, 'png', rotated.json.secret))).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, GRACE_SECONDS * 1000 + 200));
        expect(await codeOf(await get(old))).toBe('INVALID_SIGNATURE');
        expect((await admin(server.base, 'DELETE', `/url-signing-secrets/${secret.id}`)).status).toBe(204);
        expect(await codeOf(await get(sign({ name: 'after' }, 'png', rotated.json.secret)))).toBe(
          'INVALID_SIGNATURE',
        );
        expect((await admin(server.base, 'POST', `/url-signing-secrets/${secret.id}/rotate`)).status).toBe(
          404,
        );
      });

      it('stops charged renders at the render cap, also under concurrency; replays stay free', async () => {
        const { sign, ledger, secret } = await setup(20, { renderCap: 2 });
        const urls = Array.from({ length: 6 }, (_, i) => sign({ name: `n${i}` }));
        const responses = await Promise.all(urls.map((url) => get(url)));
        const statuses = responses.map((r) => r.status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(2);
        const refused = responses.filter((r) => r.status === 403);
        expect(await Promise.all(refused.map(codeOf))).toEqual(Array(4).fill('RENDER_CAP_REACHED'));
        const served = urls[statuses.indexOf(200)] ?? '';
        expect((await get(served)).status).toBe(200); // a replay takes nothing from the cap
        expect(await ledger()).toEqual([20, -1, -1]);
        const raised = await admin(server.base, 'PATCH', `/url-signing-secrets/${secret.id}`, {
          renderCap: 3,
        });
        expect(raised.json).toMatchObject({ renderCap: 3, renders: 2 });
        expect((await get(urls[statuses.indexOf(403)] ?? '')).status).toBe(200);
      });

      it('answers a deleted template, a suspended workspace, bad parameters and no credits without charging', async () => {
        const { sign, ledger, key, templateId, workspaceId } = await setup(1);
        for (const [params, path] of [
          [{ name: 'x', scale: 'big' }, 'scale'],
          [{ name: 'x', quality: '500' }, 'quality'],
          [{ name: 'x'.repeat(10_001) }, 'name'],
        ] as const) {
          const response = await get(sign(params));
          expect(response.status, path).toBe(400);
          expect(await codeOf(response)).toBe('VALIDATION_FAILED');
        }
        const duplicated = sign({ name: 'x' }).replace('?', '?name=y&');
        expect(await codeOf(await get(duplicated))).toBe('INVALID_SIGNATURE');
        expect((await get(sign({ name: 'pdf' }, 'pdf'))).headers.get('content-type')).toBe('application/pdf');
        const broke = await get(sign({ name: 'no credits left' }));
        expect(broke.status).toBe(402);
        expect(await codeOf(broke)).toBe('INSUFFICIENT_CREDITS');
        await admin(server.base, 'PATCH', `/workspaces/${workspaceId}`, { suspended: true });
        expect(await codeOf(await get(sign({ name: 'pdf' }, 'pdf')))).toBe('SUBSCRIPTION_SUSPENDED');
        await admin(server.base, 'PATCH', `/workspaces/${workspaceId}`, { suspended: false });
        await http(server.base, 'DELETE', `/v1/templates/${templateId}`, { headers: bearer(key) });
        const gone = await get(sign({ name: 'pdf' }, 'pdf'));
        expect(gone.status).toBe(404);
        expect(await codeOf(gone)).toBe('NOT_FOUND');
        expect(await ledger()).toEqual([1, -1]);
      });

      it('manages secrets through the operator API only', async () => {
        const { workspaceId, secret } = await setup();
        expect(secret.secret).toMatch(/^urlsec_[A-Za-z0-9_-]{43}$/);
        const noToken = await http(
          server.base,
          'GET',
          `/admin/v1/workspaces/${workspaceId}/url-signing-secrets`,
        );
        expect(noToken.status).toBe(401);
        expect((await admin(server.base, 'GET', '/workspaces/ws_missing/url-signing-secrets')).status).toBe(
          404,
        );
        const badCap = await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {
          renderCap: 0,
        });
        expect(badCap.json.error.code).toBe('VALIDATION_FAILED');
      });
    },
  );
}
