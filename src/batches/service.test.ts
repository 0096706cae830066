/**
 * Batch admission is one atomic check-and-hold on SQLite and PostgreSQL: of concurrent batches the
 * balance pays only some of, the others are refused whole (402, nothing charged or created), never
 * accepted with rows failing for want of credits. On the store (many admissions at once against one
 * balance) and over HTTP (two batches at once, each alone affordable, together not).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from '../../test/fixtures/samples.ts';
import { backends, type TestDatabase, testDatabase } from '../../test/harness/backends.ts';
import {
  admin,
  bearer,
  http,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from '../../test/harness/server.ts';
import { eventually } from '../../test/harness/webhooks.ts';
import type { Store } from '../store/index.ts';

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `batch admission on the ${backend.name} store${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let store: Store;
      beforeAll(async () => {
        database = testDatabase(backend.name);
        store = await database.open();
      });
      afterAll(async () => {
        await store.close();
        await database.destroy();
      });

      it('admits, of twelve concurrent batches of 3 against a balance of 10, exactly three', async () => {
        const workspace = await store.workspaces.create({ name: 'w', credits: 10, actor: 'test' });
        const admit = (price: number, holdUntil = new Date(Date.now() + 60_000)) =>
          store.batches.createFunded({
            workspaceId: workspace.id,
            templateId: 'tpl_x',
            format: 'png',
            total: price,
            price,
            holdUntil,
          });
        const outcomes = await Promise.all(Array.from({ length: 12 }, () => admit(3)));
        const created = outcomes.filter((o) => o.kind === 'created');
        expect(created).toHaveLength(3);
        expect(outcomes.filter((o) => o.kind === 'unfunded')).toHaveLength(9);
        expect(outcomes.find((o) => o.kind === 'unfunded')).toEqual({
          kind: 'unfunded',
          balance: 10,
          held: 9,
        });
        // Charged rows shrink a hold; a released hold frees its credits; an expired one counts no more.
        const [first, second, third] = created.map((o) => (o.kind === 'created' ? o.batch.id : ''));
        await store.batches.spendHold(first ?? '', 2);
        expect((await admit(3)).kind).toBe('created'); // 10 - (1 + 3 + 3) = 3
        expect((await admit(1)).kind).toBe('unfunded');
        await store.batches.releaseHold(second ?? '');
        await store.batches.releaseHold(third ?? '');
        expect((await admit(6, new Date(Date.now() - 1))).kind).toBe('created'); // its hold already lapsed
        expect((await admit(6)).kind).toBe('created');
        expect(await store.batches.dropExpiredHolds(new Date())).toBe(1);
        expect((await admit(1)).kind).toBe('unfunded');
        const missing = await store.batches.createFunded({
          workspaceId: 'ws_missing',
          templateId: 'tpl_x',
          format: 'png',
          total: 1,
          price: 1,
          holdUntil: new Date(Date.now() + 60_000),
        });
        expect(missing).toEqual({ kind: 'missing' });
      });
    },
  );

  describe.skipIf(backend.skip)(
    `concurrent batches over HTTP on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(backend.name);
      });
      afterAll(() => server.close());

      it('accepts one of two batches a balance pays only one of, whole, and refuses the other whole', async () => {
        // Pricing a row waits a little, as on a database across a network: the two requests'
        // pricing interleaves (SQLite answers synchronously, and one request could run to its end
        // before the other is even read).
        const { renders } = server.services;
        const prepare = renders.prepare.bind(renders);
        renders.prepare = async (...args: Parameters<typeof prepare>) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return prepare(...args);
        };
        for (let round = 0; round < 4; round++) {
          const { workspaceId, key } = await workspaceWithKey(server.base, { credits: 3 });
          const template = await http(server.base, 'POST', '/v1/templates', {
            body: { name: 't', document: simpleDocument() },
            headers: bearer(key),
          });
          const batch = (prefix: string) =>
            http(server.base, 'POST', `/v1/templates/${template.json.id}/batches`, {
              body: { rows: [1, 2, 3].map((n) => ({ name: `${prefix}${n}` })) },
              headers: bearer(key),
            });
          const answers = await Promise.all([batch('a'), batch('b')]);
          const statuses = answers.map((a) => a.status).sort();
          expect([round, statuses]).toEqual([round, [201, 402]]);
          const accepted = answers.find((a) => a.status === 201);
          const refused = answers.find((a) => a.status === 402);
          expect(refused?.json.error).toMatchObject({
            code: 'INSUFFICIENT_CREDITS',
            details: { required: 3 },
          });
          const rows = accepted?.json.rows as Array<{ status: string; error?: unknown }>;
          expect(rows.filter((r) => r.status === 'failed')).toEqual([]);
          const ledger = await admin(server.base, 'GET', `/workspaces/${workspaceId}/ledger`);
          expect(ledger.json.items.map((e: { delta: number }) => e.delta)).toEqual([3, -1, -1, -1]);
          // The hold ends with the acceptance: credits granted later pay the next batch at once.
          await admin(server.base, 'POST', `/workspaces/${workspaceId}/credits`, {
            amount: 3,
            reason: 'more',
          });
          await eventually(async () => {
            const again = await http(server.base, 'GET', `/v1/batches/${accepted?.json.id}`, {
              headers: bearer(key),
            });
            return again.json.status === 'completed';
          }, 20_000);
          expect((await batch('c')).status).toBe(201);
        }
      }, 120_000);
    },
  );
}
