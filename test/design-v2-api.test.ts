/**
 * Design document version 2 through the API, over HTTP on loopback: each hostile input the issue
 * names answers 400 with a path (never a 5xx, a hang or a charge); property modifications hide and
 * recolour per render; a version 1 template keeps rendering the same bytes; the cost estimate
 * refuses a page whose effects would cost too much before any credit is spent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const box = { x: 0, y: 0, width: 100, height: 100 };
const doc = (elements: unknown[], page: Record<string, unknown> = {}) => ({
  schemaVersion: 2,
  pages: [{ id: 'p1', width: 400, height: 300, background: '#ffffff', elements, ...page }],
});
const group = (id: string, elements: unknown[], extra: Record<string, unknown> = {}) => ({
  id,
  type: 'group',
  ...box,
  elements,
  ...extra,
});
function nested(depth: number): unknown {
  let node: unknown = { id: 'leaf', type: 'rect', ...box };
  for (let i = 0; i < depth; i++) node = group(`g${i}`, [node]);
  return node;
}

const hostile: [string, unknown, string][] = [
  [
    '10,000 spans',
    { id: 't', type: 'text', ...box, spans: Array.from({ length: 10_000 }, () => ({ text: 'a' })) },
    'document.pages[0].elements[0].spans',
  ],
  ['16-deep groups', nested(16), `document.pages[0]${'.elements[0]'.repeat(9)}.elements`],
  [
    'a blur radius of 10^6',
    { id: 'r', type: 'rect', ...box, blur: 1e6 },
    'document.pages[0].elements[0].blur',
  ],
  [
    'a gradient with 10,000 stops',
    {
      id: 'r',
      type: 'rect',
      ...box,
      fill: {
        type: 'linear',
        angle: 0,
        stops: Array.from({ length: 10_000 }, (_, i) => ({ offset: i / 10_000, color: '#000000' })),
      },
    },
    'document.pages[0].elements[0].fill',
  ],
  [
    'a crop outside 0-1',
    { id: 'i', type: 'image', ...box, src: 'asset:ast_x', crop: { x: 0, y: 1.5, width: 1, height: 1 } },
    'document.pages[0].elements[0].crop.y',
  ],
  [
    'a barcode value of 100 KB',
    { id: 'b', type: 'barcode', ...box, format: 'code128', value: '7'.repeat(100_000) },
    'document.pages[0].elements[0].value',
  ],
];

describe('design document version 2 over HTTP', () => {
  let server: TestServer;
  let key: string;
  let workspaceId: string;
  const balance = async () =>
    (await admin(server.base, 'GET', `/workspaces/${workspaceId}`)).json.creditBalance as number;
  const create = (document: unknown) =>
    http(server.base, 'POST', '/v1/templates', { body: { name: 'v2', document }, headers: bearer(key) });
  const render = (id: string, body: unknown) =>
    http(server.base, 'POST', `/v1/templates/${id}/render`, { body, headers: bearer(key) });

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    ({ key, workspaceId } = await workspaceWithKey(server.base, { credits: 100 }));
  });
  afterAll(() => server.close());

  it.each(hostile)('answers %s with 400 and its path', async (_name, element, path) => {
    const res = await create(doc([element]));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('VALIDATION_FAILED');
    expect(res.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('hides and recolours per render with name.visible and name.fill', async () => {
    const badge = {
      id: 'badge',
      name: 'badge',
      type: 'rect',
      x: 150,
      y: 100,
      width: 100,
      height: 100,
      fill: '#ff0000',
    };
    const shown = await create(doc([group('g', [badge], { x: 10, y: 10, width: 300, height: 250 })]));
    const hidden = await create(
      doc([group('g', [{ ...badge, visible: false }], { x: 10, y: 10, width: 300, height: 250 })]),
    );
    const blue = await create(
      doc([group('g', [{ ...badge, fill: '#0000ff' }], { x: 10, y: 10, width: 300, height: 250 })]),
    );
    expect([shown.status, hidden.status, blue.status]).toEqual([201, 201, 201]);
    const bytesOf = async (id: string, modifications: Record<string, string>) => {
      const res = await render(id, { format: 'png', modifications });
      expect(res.status).toBe(200);
      return Buffer.from(await (await fetch(res.json.url)).arrayBuffer());
    };
    const base = await bytesOf(shown.json.id, {});
    const hiddenByKey = await bytesOf(shown.json.id, { 'badge.visible': 'false' });
    const recoloured = await bytesOf(shown.json.id, { 'badge.fill': '#0000ff' });
    expect(hiddenByKey.equals(base)).toBe(false);
    expect(hiddenByKey.equals(await bytesOf(hidden.json.id, {}))).toBe(true);
    expect(recoloured.equals(await bytesOf(blue.json.id, {}))).toBe(true);
  });

  it('refuses a bad property value with 400 at its key, charging nothing', async () => {
    const created = await create(doc([{ id: 'b', name: 'badge', type: 'rect', ...box }]));
    const before = await balance();
    const res = await render(created.json.id, { modifications: { 'badge.visible': 'perhaps' } });
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe('modifications.badge.visible');
    expect(await balance()).toBe(before);
  });

  it('refuses a render whose effects would cost too much before any work or charge', async () => {
    const blurred = Array.from({ length: 6 }, (_, i) => ({
      id: `r${i}`,
      type: 'rect',
      x: 0,
      y: 0,
      width: 6000,
      height: 6000,
      fill: '#336699',
      shadow: { color: '#000000', blur: 40, offsetX: 10, offsetY: 10 },
    }));
    const created = await create({
      schemaVersion: 2,
      pages: [{ id: 'p1', width: 6000, height: 6000, elements: blurred }],
    });
    expect(created.status).toBe(201);
    const before = await balance();
    const res = await render(created.json.id, { format: 'png' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('VALIDATION_FAILED');
    expect(res.json.error.details[0]).toMatchObject({ path: 'pages[0].elements[0]' });
    expect(res.json.error.details[0].message).toMatch(
      /megapixels at 1 pixels a unit; the limit is 200 a render/,
    );
    expect(await balance()).toBe(before);
  });

  it('keeps a version 1 template as it was stored, rendering at version 2', async () => {
    const v1 = { schemaVersion: 1, pages: [{ id: 'p1', width: 50, height: 50, elements: [] }] };
    const created = await create(v1);
    expect(created.status).toBe(201);
    expect(created.json.document.schemaVersion).toBe(2);
    expect((await render(created.json.id, { format: 'png' })).status).toBe(200);
  });
});
