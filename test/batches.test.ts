/**
 * Bulk renders over HTTP on SQLite and PostgreSQL: JSON rows and CSV, priced up front (402 charges
 * nothing), identical rows free, a bad row failing alone, progress and the manifest, the ZIP,
 * `batch.completed`, and cancelling (rows not rendered are refunded). Bad CSVs are refused whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../src/webhooks/testing/receiver.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { queues } from './harness/backends.ts';
import {
  admin,
  bearer,
  http,
  startOrigin,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';
import { eventually } from './harness/webhooks.ts';

for (const backend of queues) {
  describe.skipIf(backend.skip)(
    `batches on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(backend.backend, backend.env);
      });
      afterAll(() => server.close());

      async function setup(credits: number, document: object = simpleDocument()) {
        const { workspaceId, key } = await workspaceWithKey(server.base, { credits });
        const template = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 't', document },
          headers: bearer(key),
        });
        const ledger = async () =>
          (await admin(server.base, 'GET', `/workspaces/${workspaceId}/ledger`)).json.items.map(
            (e: { delta: number }) => e.delta,
          );
        const get = (id: string) => http(server.base, 'GET', `/v1/batches/${id}`, { headers: bearer(key) });
        const finished = async (id: string) => {
          let batch: Record<string, unknown> & { status?: string } = {};
          await eventually(async () => {
            batch = (await get(id)).json;
            return batch.status !== 'running';
          }, 20_000);
          return batch;
        };
        return { workspaceId, key, templateId: template.json.id as string, ledger, get, finished };
      }

      it('renders every row, identical rows free and a bad row failing alone, with a manifest, a ZIP and an event', async () => {
        const { workspaceId, key, templateId, ledger, finished } = await setup(10);
        const receiver = await startReceiver(() => ({ status: 200 }));
        try {
          const hook = await admin(server.base, 'POST', `/workspaces/${workspaceId}/webhooks`, {
            url: receiver.url('/batches'),
            events: ['batch.completed'],
          });
          receiver.secrets.set('/batches', hook.json.secret);
          const rows = [
            { name: 'Paris' },
            { name: 'Lyon' },
            { name: 'x'.repeat(10_001) },
            { name: 'Paris' },
            { name: 'Nice' },
          ];
          const created = await http(server.base, 'POST', `/v1/templates/${templateId}/batches`, {
            body: { format: 'png', rows },
            headers: bearer(key),
          });
          expect(created.status).toBe(201);
          expect(created.json).toMatchObject({ total: 5, format: 'png' });
          const batch = await finished(created.json.id);
          expect(batch).toMatchObject({ status: 'completed', progress: { done: 4, failed: 1, pending: 0 } });
          const manifest = batch.rows as Array<{
            row: number;
            status: string;
            url?: string;
            error?: { code: string };
          }>;
          expect(manifest.map((r) => r.status)).toEqual(['done', 'done', 'failed', 'done', 'done']);
          expect(manifest[2]?.error?.code).toBe('VALIDATION_FAILED');
          expect(manifest[3]?.url).toBe(manifest[0]?.url); // the identical row is the same render
          expect((await fetch(manifest[4]?.url ?? '')).headers.get('content-type')).toBe('image/png');
          expect(await ledger()).toEqual([10, -1, -1, -1]);

          const zip = await fetch(`${server.base}/v1/batches/${created.json.id}/files.zip`, {
            headers: bearer(key),
          });
          expect(zip.headers.get('content-type')).toBe('application/zip');
          const bytes = Buffer.from(await zip.arrayBuffer());
          expect(bytes.subarray(0, 2).toString()).toBe('PK');
          for (const name of ['manifest.json', 'row-1.png', 'row-2.png', 'row-4.png', 'row-5.png'])
            expect(bytes.includes(Buffer.from(name)), name).toBe(true);
          expect(bytes.includes(Buffer.from('row-3.png'))).toBe(false);

          await eventually(() => receiver.delivered('/batches').size === 1, 15_000);
          const [event] = [...receiver.delivered('/batches').values()];
          expect(JSON.parse(event?.body ?? '{}')).toMatchObject({
            type: 'batch.completed',
            data: { batch: { id: created.json.id, status: 'completed', progress: { done: 4, failed: 1 } } },
          });
        } finally {
          await receiver.close();
        }
      });

      it('lists one file per page for a raster render of several pages, in the manifest and the ZIP', async () => {
        const document = simpleDocument();
        const second = structuredClone(document.pages[0]);
        if (!second) throw new Error('fixture');
        second.elements = second.elements.map((element) => ({ ...element, id: `${element.id}-2` }));
        document.pages.push({ ...second, id: 'p2' });
        const { key, templateId, finished, ledger } = await setup(10, document);
        const created = await http(server.base, 'POST', `/v1/templates/${templateId}/batches`, {
          body: { allPages: true, rows: [{ name: 'a' }, { name: 'b' }] },
          headers: bearer(key),
        });
        expect(created.status, JSON.stringify(created.json)).toBe(201);
        const batch = await finished(created.json.id);
        const rows = batch.rows as Array<{ url?: string; urls?: string[] }>;
        expect(rows.map((r) => r.urls?.length)).toEqual([2, 2]);
        expect(rows[0]?.url).toBeUndefined();
        expect(await ledger()).toEqual([10, -2, -2]);
        const zip = await fetch(`${server.base}/v1/batches/${created.json.id}/files.zip`, {
          headers: bearer(key),
        });
        const bytes = Buffer.from(await zip.arrayBuffer());
        for (const name of ['row-1-page-1.png', 'row-1-page-2.png', 'row-2-page-2.png'])
          expect(bytes.includes(Buffer.from(name)), name).toBe(true);
      });

      it('refuses a batch it cannot pay for in full with 402, charging nothing', async () => {
        const { key, templateId, ledger } = await setup(2);
        const refused = await http(server.base, 'POST', `/v1/templates/${templateId}/batches`, {
          body: { rows: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'a' }] },
          headers: bearer(key),
        });
        expect(refused.status).toBe(402);
        expect(refused.json.error).toMatchObject({
          code: 'INSUFFICIENT_CREDITS',
          details: { required: 3, balance: 2 },
        });
        expect(await ledger()).toEqual([2]);
      });

      it('preflights every row first when asked, failing uncharged the rows with an error finding', async () => {
        const { key, templateId, ledger, finished } = await setup(10);
        const rows = [{ name: 'Ann' }, { name: 'ᎣᏏᏲ' }, { name: 'Bob' }];
        const created = await http(server.base, 'POST', `/v1/templates/${templateId}/batches`, {
          body: { rows, preflight: true },
          headers: bearer(key),
        });
        expect(created.status).toBe(201);
        const batch = (await finished(created.json.id)) as { rows: Array<Record<string, unknown>> };
        expect(batch).toMatchObject({ status: 'completed', progress: { done: 2, failed: 1 } });
        expect(batch.rows[1]).toMatchObject({
          row: 2,
          status: 'failed',
          error: {
            code: 'PREFLIGHT_FAILED',
            details: { findings: [{ code: 'missing-glyphs', elementId: 't1' }] },
          },
        });
        expect(await ledger()).toEqual([10, -1, -1]);
        // Without the option the same row renders (its characters drawn as boxes), as before.
        const plain = await http(server.base, 'POST', `/v1/templates/${templateId}/batches`, {
          body: { rows: [{ name: 'ᎣᏏᏲ' }] },
          headers: bearer(key),
        });
        expect(await finished(plain.json.id)).toMatchObject({ progress: { done: 1, failed: 0 } });
        const csv = await http(
          server.base,
          'POST',
          `/v1/templates/${templateId}/batches/csv?preflight=true`,
          {
            raw: Buffer.from('name\nᎣᏏᏲ\nCyd\n'),
            headers: { ...bearer(key), 'content-type': 'text/csv' },
          },
        );
        expect(await finished(csv.json.id)).toMatchObject({ progress: { done: 1, failed: 1 } });
      });

      it('takes a CSV whose header names the variables, and refuses malformed, unknown-column or oversized ones whole', async () => {
        const { key, templateId, ledger, finished } = await setup(10);
        const csv = (text: string, query = '?format=jpeg') =>
          http(server.base, 'POST', `/v1/templates/${templateId}/batches/csv${query}`, {
            raw: Buffer.from(text),
            headers: { ...bearer(key), 'content-type': 'text/csv' },
          });
        const good = await csv('name\n"Zoë, the ""best"""\nBob\n');
        expect(good.status).toBe(201);
        const batch = await finished(good.json.id);
        expect(batch).toMatchObject({ status: 'completed', format: 'jpeg', progress: { done: 2 } });
        for (const [text, path] of [
          ['name\n"unclosed\n', 'line'],
          ['name,extra\nAda\n', 'line'],
          ['nmae\nAda\n', 'column'],
          [`name\n${'row\n'.repeat(1001)}`, 'csv'],
        ] as const) {
          const refused = await csv(text);
          expect(refused.status, text.slice(0, 20)).toBe(400);
          expect(refused.json.error.code).toBe('VALIDATION_FAILED');
          expect(JSON.stringify(refused.json.error.details)).toContain(path);
        }
        expect((await csv('name\nAda\n', '?format=bmp')).status).toBe(400);
        const huge = await csv(`name\n${'a'.repeat(2 * 1024 * 1024)}\n`);
        expect(huge.status).toBe(413);
        expect(huge.json.error.code).toBe('PAYLOAD_TOO_LARGE');
        expect(await ledger()).toEqual([10, -1, -1]);
      });

      it('cancels a running batch: rows not rendered yet are refunded', async () => {
        const origin = await startOrigin((_req, res) => {
          setTimeout(() => res.writeHead(404).end(), 3_000);
        });
        try {
          const document = simpleDocument();
          document.pages[0]?.elements.push({
            id: 'img',
            type: 'image',
            x: 0,
            y: 0,
            width: 9,
            height: 9,
            src: `${origin.base}/slow.png`,
          } as never);
          const { key, templateId, ledger, get } = await setup(10, document);
          const rows = Array.from({ length: 6 }, (_, i) => ({ name: `r${i}` }));
          const created = await http(server.base, 'POST', `/v1/templates/${templateId}/batches`, {
            body: { rows },
            headers: bearer(key),
          });
          const cancelled = await http(server.base, 'POST', `/v1/batches/${created.json.id}/cancel`, {
            headers: bearer(key),
          });
          expect(cancelled.status).toBe(200);
          expect(cancelled.json.status).toBe('cancelled');
          const again = await http(server.base, 'POST', `/v1/batches/${created.json.id}/cancel`, {
            headers: bearer(key),
          });
          expect(again.json.error.code).toBe('CONFLICT');
          // Every row ends failed (cancelled, or its slow image failing), and every credit comes back.
          await eventually(async () => (await get(created.json.id)).json.progress.pending === 0, 30_000);
          await eventually(
            async () => (await ledger()).reduce((a: number, b: number) => a + b, 0) === 10,
            30_000,
          );
          const stranger = await workspaceWithKey(server.base);
          const peek = await http(server.base, 'GET', `/v1/batches/${created.json.id}`, {
            headers: bearer(stranger.key),
          });
          expect(peek.json.error.code).toBe('WORKSPACE_MISMATCH');
        } finally {
          await origin.close();
        }
      }, 60_000);
    },
  );
}
