/**
 * Rotating a URL-signing secret twice within the grace period: every replaced secret keeps verifying
 * until the grace its own rotation gave it (key 1 until rotation 1's end, key 2 until rotation 2's),
 * then stops; revoking ends them all at once; at most MAX_PREVIOUS_SECRETS are kept. On the store,
 * and over HTTP (a URL signed with key 1 still renders after the second rotation), on each backend.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUrl } from '../src/auth/url-signature.ts';
import type { Store } from '../src/store/index.ts';
import { MAX_PREVIOUS_SECRETS } from '../src/store/url-secrets.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { backends, type TestDatabase, testDatabase } from './harness/backends.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const HOUR = 3_600_000;

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `URL-signing secret rotation on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let store: Store;
      let workspaceId = '';
      beforeAll(async () => {
        database = testDatabase(backend.name);
        store = await database.open();
        workspaceId = (await store.workspaces.create({ name: 'w', credits: 0, actor: 'test' })).id;
      });
      afterAll(async () => {
        await store.close();
        await database.destroy();
      });

      const keysAt = async (at: Date) =>
        (await store.urlSecrets.verifyingKeys(workspaceId, at)).map((k) => k.key).sort();

      it('keeps each replaced key until its own grace ends, however many rotations follow', async () => {
        const now = Date.now();
        const created = await store.urlSecrets.create({
          workspaceId,
          name: 's',
          secret: 'key-1',
          renderCap: null,
        });
        const first = await store.urlSecrets.rotate(created.id, 'key-2', new Date(now + 24 * HOUR));
        expect(first).toMatchObject({
          secret: 'key-2',
          previousValidUntil: new Date(now + 24 * HOUR).toISOString(),
        });
        // The second rotation an hour later, within the first one's grace, with a grace of its own.
        const second = await store.urlSecrets.rotate(created.id, 'key-3', new Date(now + 25 * HOUR));
        expect(second).toMatchObject({
          secret: 'key-3',
          previousValidUntil: new Date(now + 25 * HOUR).toISOString(),
        });

        expect(await keysAt(new Date(now + HOUR))).toEqual(['key-1', 'key-2', 'key-3']);
        expect(await keysAt(new Date(now + 24 * HOUR + 1000))).toEqual(['key-2', 'key-3']);
        expect(await keysAt(new Date(now + 25 * HOUR + 1000))).toEqual(['key-3']);
        for (const key of await store.urlSecrets.verifyingKeys(workspaceId, new Date(now)))
          expect(key.secretId).toBe(created.id);

        expect(await store.urlSecrets.revoke(created.id)).toBe(true);
        expect(await keysAt(new Date(now))).toEqual([]);
        expect(await store.urlSecrets.rotate(created.id, 'key-4', new Date(now + HOUR))).toBeNull();
      });

      it(`keeps at most ${MAX_PREVIOUS_SECRETS} replaced keys, dropping those replaced earliest`, async () => {
        const now = Date.now();
        const created = await store.urlSecrets.create({
          workspaceId,
          name: 'many',
          secret: 'm-0',
          renderCap: null,
        });
        for (let i = 1; i <= MAX_PREVIOUS_SECRETS + 5; i++)
          await store.urlSecrets.rotate(created.id, `m-${i}`, new Date(now + 24 * HOUR));
        const keys = (await store.urlSecrets.verifyingKeys(workspaceId, new Date(now)))
          .filter((k) => k.secretId === created.id)
          .map((k) => k.key);
        expect(keys).toHaveLength(MAX_PREVIOUS_SECRETS + 1);
        expect(keys).toContain(`m-${MAX_PREVIOUS_SECRETS + 5}`);
        expect(keys).toContain('m-5');
        expect(keys).not.toContain('m-4');
      });

      it('two rotations at once both keep the key each replaced', async () => {
        const now = Date.now();
        const created = await store.urlSecrets.create({
          workspaceId,
          name: 'race',
          secret: 'r-0',
          renderCap: null,
        });
        await Promise.all([
          store.urlSecrets.rotate(created.id, 'r-a', new Date(now + HOUR)),
          store.urlSecrets.rotate(created.id, 'r-b', new Date(now + HOUR)),
        ]);
        const keys = (await store.urlSecrets.verifyingKeys(workspaceId, new Date(now)))
          .filter((k) => k.secretId === created.id)
          .map((k) => k.key)
          .sort();
        expect(keys).toEqual(['r-0', 'r-a', 'r-b']);
      });
    },
  );

  describe.skipIf(backend.skip)(
    `a URL signed before two rotations, over HTTP on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(backend.name, { PLATEN_URL_SECRET_GRACE_SECONDS: '3600' });
      });
      afterAll(() => server.close());

      it('renders with key 1 after rotations 1 and 2, until key 1 is revoked', async () => {
        const { workspaceId, key } = await workspaceWithKey(server.base, { credits: 10 });
        const template = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 't', document: simpleDocument() },
          headers: bearer(key),
        });
        const created = await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {
          name: 's',
        });
        expect(created.status).toBe(201);
        const path = `/v1/templates/${template.json.id}/image.png`;
        const signedWith = (secret: string, name: string) => signUrl(server.base, path, { name }, secret);
        const key1Url = signedWith(created.json.secret, 'one');
        expect((await fetch(key1Url)).status).toBe(200);

        const rotated1 = await admin(server.base, 'POST', `/url-signing-secrets/${created.json.id}/rotate`);
        expect(rotated1.status).toBe(200);
        const rotated2 = await admin(server.base, 'POST', `/url-signing-secrets/${created.json.id}/rotate`);
        expect(rotated2.status).toBe(200);
        const key2Url = signedWith(rotated1.json.secret, 'two');
        const key3Url = signedWith(rotated2.json.secret, 'three');
        for (const url of [key1Url, key2Url, key3Url]) expect((await fetch(url)).status, url).toBe(200);
        // A URL key 1 signs now (a new identity, so it is verified and rendered, not replayed).
        expect((await fetch(signedWith(created.json.secret, 'one again'))).status).toBe(200);

        expect((await admin(server.base, 'DELETE', `/url-signing-secrets/${created.json.id}`)).status).toBe(
          204,
        );
        for (const url of [key1Url, key2Url, key3Url]) expect((await fetch(url)).status, url).toBe(403);
      });
    },
  );
}
