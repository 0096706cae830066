/**
 * Credits under concurrency, on every backend: identical requests at once charge once; a burst of
 * different requests never overdraws; a full queue answers 503 and charges nothing. The ledger
 * always explains the balance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { backends } from './harness/backends.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

async function ledgerAgrees(base: string, workspaceId: string): Promise<number> {
  const balance = (await admin(base, 'GET', `/workspaces/${workspaceId}`)).json.creditBalance as number;
  const ledger = (await admin(base, 'GET', `/workspaces/${workspaceId}/ledger`)).json.items as {
    delta: number;
    balanceAfter: number;
  }[];
  expect(ledger.reduce((sum, e) => sum + e.delta, 0)).toBe(balance);
  expect(ledger.at(-1)?.balanceAfter).toBe(balance);
  for (const entry of ledger) expect(entry.balanceAfter).toBeGreaterThanOrEqual(0);
  return balance;
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `render concurrency on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(backend.name, { PLATEN_RENDER_QUEUE: '256' });
      });
      afterAll(() => server.close());

      it('renders and charges 50 identical simultaneous requests once', async () => {
        const { key, workspaceId } = await workspaceWithKey(server.base, { credits: 100 });
        const t = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 'c', document: simpleDocument() },
          headers: bearer(key),
        });
        const results = await Promise.all(
          Array.from({ length: 50 }, () =>
            http(server.base, 'POST', `/v1/templates/${t.json.id}/render`, {
              body: { modifications: { name: 'same' } },
              headers: bearer(key),
            }),
          ),
        );
        expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
        expect(results.filter((r) => r.json.credits.charged === 1)).toHaveLength(1);
        expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
        expect(await ledgerAgrees(server.base, workspaceId)).toBe(99);
      });

      it('lets exactly 10 of 50 different requests through with 10 credits', async () => {
        const { key, workspaceId } = await workspaceWithKey(server.base, { credits: 10 });
        const t = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 'd', document: simpleDocument() },
          headers: bearer(key),
        });
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            http(server.base, 'POST', `/v1/templates/${t.json.id}/render`, {
              body: { idempotencyKey: `req-${i}` },
              headers: bearer(key),
            }),
          ),
        );
        const statuses = results.map((r) => r.status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(10);
        expect(statuses.filter((s) => s === 402)).toHaveLength(40);
        for (const r of results.filter((x) => x.status === 402))
          expect(r.json.error.code).toBe('INSUFFICIENT_CREDITS');
        expect(await ledgerAgrees(server.base, workspaceId)).toBe(0);
        const rows = await server.store.handle.db
          .selectFrom('renders')
          .select(['status'])
          .where('workspace_id', '=', workspaceId)
          .execute();
        expect(rows.filter((r) => r.status === 'done')).toHaveLength(10);
      });
    },
  );
}

describe('a full render queue', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { PLATEN_RENDER_QUEUE: '1', PLATEN_RENDER_WORKERS: '1' });
  });
  afterAll(() => server.close());

  it('answers 503 OVERLOADED with Retry-After and charges nothing for those', async () => {
    const { key, workspaceId } = await workspaceWithKey(server.base, { credits: 100 });
    const doc = simpleDocument();
    const page = doc.pages[0];
    if (page) {
      page.width = 3000;
      page.height = 3000;
    }
    const t = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 'q', document: doc },
      headers: bearer(key),
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        http(server.base, 'POST', `/v1/templates/${t.json.id}/render`, {
          body: { idempotencyKey: `q-${i}` },
          headers: bearer(key),
        }),
      ),
    );
    const overloaded = results.filter((r) => r.status === 503);
    expect(overloaded.length).toBeGreaterThan(0);
    for (const r of overloaded) {
      expect(r.json.error.code).toBe('OVERLOADED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const ok = results.filter((r) => r.status === 200).length;
    expect(await ledgerAgrees(server.base, workspaceId)).toBe(100 - ok);
  });
});
