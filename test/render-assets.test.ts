/**
 * Workspace assets in renders: `asset:<id>` images and uploaded fonts are used by their own
 * workspace only; another workspace's asset id is refused and its font family is not visible.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEJAVU_TTF } from './fixtures/samples.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function textDocument(fontFamily: string) {
  return {
    schemaVersion: 1,
    pages: [
      {
        id: 'p',
        width: 300,
        height: 80,
        background: '#ffffff',
        elements: [
          {
            id: 't',
            type: 'text',
            x: 10,
            y: 10,
            width: 280,
            height: 60,
            text: 'Brand font',
            fontFamily,
            fontSize: 36,
          },
        ],
      },
    ],
  };
}

async function renderPng(key: string, document: unknown) {
  const t = await http(server.base, 'POST', '/v1/templates', {
    body: { name: 'f', document },
    headers: bearer(key),
  });
  const r = await http(server.base, 'POST', `/v1/templates/${t.json.id}/render`, {
    body: {},
    headers: bearer(key),
  });
  return r;
}

async function pixels(url: string): Promise<Buffer> {
  return sharp(Buffer.from(await (await fetch(url)).arrayBuffer()))
    .raw()
    .toBuffer();
}

describe('assets in renders', () => {
  it('uses an uploaded font in its workspace and nowhere else', async () => {
    const a = await workspaceWithKey(server.base);
    const b = await workspaceWithKey(server.base);
    const upload = await http(server.base, 'POST', '/v1/assets?family=Brand%20Sans', {
      raw: DEJAVU_TTF(),
      headers: { ...bearer(a.key), 'content-type': 'font/ttf' },
    });
    expect(upload.status).toBe(201);
    const withFont = await renderPng(a.key, textDocument('Brand Sans'));
    const otherWorkspace = await renderPng(b.key, textDocument('Brand Sans'));
    const fallback = await renderPng(a.key, textDocument('Inter'));
    expect([withFont.status, otherWorkspace.status, fallback.status]).toEqual([200, 200, 200]);
    const own = await pixels(withFont.json.url);
    const other = await pixels(otherWorkspace.json.url);
    const inter = await pixels(fallback.json.url);
    // Workspace B does not see A's font: it falls back, exactly as a template naming Inter renders.
    expect(other.equals(inter)).toBe(true);
    expect(own.equals(inter)).toBe(false);
  });

  it("draws the workspace's asset images and refuses another workspace's asset id (422, refunded)", async () => {
    const a = await workspaceWithKey(server.base);
    const b = await workspaceWithKey(server.base, { credits: 5 });
    const red = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const asset = await http(server.base, 'POST', '/v1/assets', {
      raw: red,
      headers: { ...bearer(a.key), 'content-type': 'image/png' },
    });
    const document = {
      schemaVersion: 1,
      pages: [
        {
          id: 'p',
          width: 40,
          height: 40,
          background: '#ffffff',
          elements: [
            {
              id: 'img',
              type: 'image',
              x: 0,
              y: 0,
              width: 40,
              height: 40,
              src: `asset:${asset.json.id}`,
              fit: 'fill',
            },
          ],
        },
      ],
    };
    const own = await renderPng(a.key, document);
    expect(own.status).toBe(200);
    const raw = await pixels(own.json.url);
    expect([raw[0], raw[1], raw[2]]).toEqual([255, 0, 0]);
    const foreign = await renderPng(b.key, document);
    expect([foreign.status, foreign.json.error.code]).toEqual([422, 'RENDER_FAILED']);
    expect(JSON.stringify(foreign.json.error.details)).toContain('img');
    expect(
      (
        await http(server.base, 'GET', `/admin/v1/workspaces/${b.workspaceId}`, {
          headers: bearer('test-admin-token-0123456789'),
        })
      ).json.creditBalance,
    ).toBe(5);
  });
});
