/**
 * Thumbnails over real HTTP, with the real render pool: after a create and after a save the record
 * gets a `thumbnailUrl` serving a WebP of the expected size, free of charge (balance, ledger and
 * render records unchanged); rapid saves coalesce into far fewer renders and the last revision
 * wins; a thumbnail that cannot render fails nothing and keeps the previous one; a replaced
 * thumbnail's file is gone.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thumbnailSize } from '../src/thumbnails/index.ts';
import { backends } from './harness/backends.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const WIDTH = 1280;
const HEIGHT = 720;

function colouredDocument(background: string, extra: unknown[] = []) {
  return {
    schemaVersion: 1,
    activePageId: 'p2',
    pages: [
      { id: 'p1', width: 300, height: 300, background: '#000000', elements: [] },
      { id: 'p2', width: WIDTH, height: HEIGHT, background, elements: extra },
    ],
  };
}

/** The RGB of the thumbnail's centre pixel. */
async function centre(bytes: Buffer): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const offset = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [data[offset] ?? -1, data[offset + 1] ?? -1, data[offset + 2] ?? -1];
}

const near = (actual: number[], expected: number[]) =>
  actual.every((value, i) => Math.abs(value - (expected[i] ?? 0)) <= 8);

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `thumbnails on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      let key: string;
      let workspaceId: string;
      const req = (method: string, path: string, options: Parameters<typeof http>[3] = {}) =>
        http(server.base, method, path, { ...options, headers: { ...bearer(key), ...options.headers } });

      /** Polls the record until its thumbnailUrl differs from `previous`. */
      async function nextThumbnail(id: string, previous: string | null = null): Promise<string> {
        const deadline = Date.now() + 15_000;
        while (Date.now() < deadline) {
          const url = (await req('GET', `/v1/templates/${id}`)).json.thumbnailUrl as string | null;
          if (url && url !== previous) return url;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error('no thumbnail before the deadline');
      }

      const idle = () =>
        Promise.race([
          server.services.thumbnails.whenIdle(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('thumbnails not idle')), 15_000)),
        ]);

      const fetchFile = async (url: string) => {
        const res = await fetch(url);
        return {
          status: res.status,
          type: res.headers.get('content-type'),
          bytes: Buffer.from(await res.arrayBuffer()),
        };
      };

      beforeAll(async () => {
        server = await startTestServer(backend.name);
        ({ key, workspaceId } = await workspaceWithKey(server.base, { credits: 7 }));
      });
      afterAll(() => server.close());

      it('gives a created and then a saved template a thumbnail of its active page, free of charge', async () => {
        const before = {
          balance: (await admin(server.base, 'GET', `/workspaces/${workspaceId}`)).json.creditBalance,
          ledger: (await admin(server.base, 'GET', `/workspaces/${workspaceId}/ledger`)).json.items.length,
        };
        const started = Date.now();
        const created = await req('POST', '/v1/templates', {
          body: { name: 'Thumb', document: colouredDocument('#ff0000') },
        });
        expect([created.status, created.json.thumbnailUrl]).toEqual([201, null]);
        const id = created.json.id;
        const first = await nextThumbnail(id);
        const firstMs = Date.now() - started;
        expect(first).toMatch(
          new RegExp(`^${server.base}/files/renders/${workspaceId}/[A-Za-z0-9_-]+/thumb_${id}\\.webp$`),
        );
        const file = await fetchFile(first);
        expect([file.status, file.type]).toEqual([200, 'image/webp']);
        const meta = await sharp(file.bytes).metadata();
        expect({ width: meta.width, height: meta.height }).toEqual(thumbnailSize(WIDTH, HEIGHT));
        expect(thumbnailSize(WIDTH, HEIGHT)).toEqual({ width: 320, height: 180 });
        expect(near(await centre(file.bytes), [255, 0, 0])).toBe(true);

        const saved = await req('PUT', `/v1/templates/${id}`, {
          body: { document: colouredDocument('#0000ff') },
        });
        expect(saved.status).toBe(200);
        const second = await nextThumbnail(id, first);
        expect(near(await centre((await fetchFile(second)).bytes), [0, 0, 255])).toBe(true);
        // The replaced thumbnail is deleted, not left behind.
        expect((await fetchFile(first)).status).toBe(404);

        const after = {
          balance: (await admin(server.base, 'GET', `/workspaces/${workspaceId}`)).json.creditBalance,
          ledger: (await admin(server.base, 'GET', `/workspaces/${workspaceId}/ledger`)).json.items.length,
        };
        expect(after).toEqual(before);
        const renders = await server.store.handle.db
          .selectFrom('renders')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .execute();
        expect(renders).toEqual([]);
        console.info(`thumbnail after create: ${firstMs} ms (400 ms of it debounce)`);
      });

      it('coalesces rapid saves into far fewer renders, and shows the last revision', async () => {
        const created = await req('POST', '/v1/templates', {
          body: { name: 'Burst', document: colouredDocument('#000000') },
        });
        const id = created.json.id;
        await idle();
        const rendered = server.services.thumbnails.stats().rendered;
        const colours = [
          '#100000',
          '#200000',
          '#300000',
          '#400000',
          '#500000',
          '#600000',
          '#700000',
          '#800000',
        ];
        for (const colour of [...colours, '#00ff00']) {
          const res = await req('PUT', `/v1/templates/${id}`, {
            body: { document: colouredDocument(colour) },
          });
          expect(res.status).toBe(200);
        }
        const last = await req('PUT', `/v1/templates/${id}`, {
          body: { document: colouredDocument('#00ff00') },
        });
        expect(last.json.revision).toBe(11);
        await idle();
        const renders = server.services.thumbnails.stats().rendered - rendered;
        expect(renders).toBeGreaterThanOrEqual(1);
        expect(renders).toBeLessThanOrEqual(3);
        const url = (await req('GET', `/v1/templates/${id}`)).json.thumbnailUrl;
        expect(near(await centre((await fetchFile(url)).bytes), [0, 255, 0])).toBe(true);
        console.info(`10 rapid saves → ${renders} thumbnail render(s)`);
      });

      it('a thumbnail that cannot render fails no save and keeps the previous thumbnail', async () => {
        const created = await req('POST', '/v1/templates', {
          body: { name: 'Broken', document: colouredDocument('#ffffff') },
        });
        const id = created.json.id;
        const previous = await nextThumbnail(id);
        await idle();
        const failed = server.services.thumbnails.stats().failed;
        const unreachable = {
          id: 'img',
          type: 'image',
          x: 0,
          y: 0,
          width: 100,
          height: 100,
          src: 'https://127.0.0.1:1/missing.png',
        };
        const saved = await req('PUT', `/v1/templates/${id}`, {
          body: { document: colouredDocument('#123456', [unreachable]) },
        });
        expect([saved.status, saved.json.revision]).toEqual([200, 2]);
        await idle();
        expect(server.services.thumbnails.stats().failed).toBe(failed + 1);
        expect((await req('GET', `/v1/templates/${id}`)).json.thumbnailUrl).toBe(previous);
        expect((await fetchFile(previous)).status).toBe(200);
      });
    },
  );
}
