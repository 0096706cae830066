/**
 * An embed that shows published templates only (docs/versions.md): the workspace's templates are
 * listed, opened and rendered as their latest published version and cannot be saved; one never
 * published does not exist for the session; an end-user's own templates stay editable drafts;
 * the console's own studio still edits drafts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { asSession, createEmbed, mint, patchEmbed } from './harness/embeds.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite', { PLATEN_RENDER_RATE_LIMIT: '0' });
});
afterAll(() => server.close());

describe('an embed with publishedOnly', () => {
  it('shows the workspace templates as published, read-only, and hides the unpublished', async () => {
    const { workspaceId, key } = await workspaceWithKey(server.base, { credits: 20 });
    const api = (method: string, path: string, body?: unknown) =>
      http(server.base, method, path, { body, headers: bearer(key) });
    const unpublished = (
      await api('POST', '/v1/templates', { name: 'draft only', document: simpleDocument() })
    ).json.id as string;
    const published = (
      await api('POST', '/v1/templates', {
        name: 'published',
        document: simpleDocument('Published {{name}}'),
      })
    ).json.id as string;
    // Shared with every end-user of a multi-tenant embed.
    for (const id of [unpublished, published])
      expect((await api('PATCH', `/v1/templates/${id}`, { shared: true })).status).toBe(200);
    expect((await api('POST', `/v1/templates/${published}/versions`)).status).toBe(201);
    expect(
      (
        await api('PUT', `/v1/templates/${published}`, {
          document: simpleDocument('Work in progress {{name}}'),
        })
      ).status,
    ).toBe(200);

    const embed = await createEmbed(server.base, workspaceId, { multiTenant: true, publishedOnly: true });
    expect(embed.publishedOnly).toBe(true);
    expect((await http(server.base, 'GET', `/v1/embed/${embed.id}`)).json.publishedOnly).toBe(true);
    const session = asSession(server.base, await mint(server.base, embed.id, 'user-1'));
    const base = `/v1/embed/${embed.id}/templates`;

    const listed = await session('GET', base);
    expect(listed.json.items.map((t: { id: string }) => t.id)).toEqual([published]);
    expect(listed.json.items[0].thumbnailUrl).toBeNull();
    const opened = await session('GET', `${base}/${published}`);
    expect(opened.json.document.pages[0].elements[1].text).toBe('Published {{name}}');
    const rendered = await session('POST', `${base}/${published}/render`, { body: { format: 'png' } });
    expect([rendered.status, rendered.json.version]).toEqual([200, 1]);
    const saved = await session('PUT', `${base}/${published}`, {
      body: { document: simpleDocument('Mine') },
    });
    expect([saved.status, saved.json.error.code]).toEqual([403, 'FORBIDDEN']);
    for (const [method, path] of [
      ['GET', `${base}/${unpublished}`],
      ['POST', `${base}/${unpublished}/render`],
    ] as const)
      expect((await session(method, path, { body: method === 'POST' ? {} : undefined })).status).toBe(404);

    // The end-user's own template is a draft like any other.
    const own = await session('POST', base, {
      body: { name: 'mine', document: simpleDocument('Own {{name}}') },
    });
    expect(own.status).toBe(201);
    expect(
      (await session('PUT', `${base}/${own.json.id}`, { body: { document: simpleDocument('Own again') } }))
        .status,
    ).toBe(200);
    expect((await session('GET', base)).json.items).toHaveLength(2);

    // A single-tenant embed: the workspace's templates, shared or not, on the same terms.
    const single = await createEmbed(server.base, workspaceId, { multiTenant: false, publishedOnly: true });
    const team = asSession(server.base, await mint(server.base, single.id));
    const teamBase = `/v1/embed/${single.id}/templates`;
    expect((await team('GET', teamBase)).json.items.map((t: { id: string }) => t.id)).toEqual([published]);
    expect(
      (await team('PUT', `${teamBase}/${published}`, { body: { document: simpleDocument() } })).status,
    ).toBe(403);
    // What it would create is a workspace draft it could neither see nor save: refused.
    expect((await team('POST', teamBase, { body: { name: 'new', width: 10, height: 10 } })).status).toBe(403);

    // The API key still works on the draft, and turning the flag off shows drafts again.
    expect((await api('GET', `/v1/templates/${published}`)).json.document.pages[0].elements[1].text).toBe(
      'Work in progress {{name}}',
    );
    await patchEmbed(server.base, embed.id, { publishedOnly: false });
    const later = asSession(server.base, await mint(server.base, embed.id, 'user-1'));
    expect((await later('GET', `${base}/${published}`)).json.document.pages[0].elements[1].text).toBe(
      'Work in progress {{name}}',
    );
  });

  it('shows a read-only history: versions listed and compared, never the draft, no publish or roll back', async () => {
    const { workspaceId, key } = await workspaceWithKey(server.base, { credits: 20 });
    const api = (method: string, path: string, body?: unknown) =>
      http(server.base, method, path, { body, headers: bearer(key) });
    const id = (await api('POST', '/v1/templates', { name: 't', document: simpleDocument('One') })).json
      .id as string;
    expect((await api('POST', `/v1/templates/${id}/versions`, { note: 'first' })).status).toBe(201);
    await api('PUT', `/v1/templates/${id}`, { document: simpleDocument('Two') });
    expect((await api('POST', `/v1/templates/${id}/versions`)).status).toBe(201);
    await api('PUT', `/v1/templates/${id}`, { document: simpleDocument('Secret draft') });

    const embed = await createEmbed(server.base, workspaceId, { multiTenant: false, publishedOnly: true });
    const session = asSession(server.base, await mint(server.base, embed.id));
    const base = `/v1/embed/${embed.id}/templates/${id}`;
    const listed = await session('GET', `${base}/versions`);
    expect(listed.json.items.map((v: { number: number; note: string | null }) => [v.number, v.note])).toEqual(
      [
        [2, null],
        [1, 'first'],
      ],
    );
    const between = await session('GET', `${base}/diff?from=1&to=2`);
    expect(between.status).toBe(200);
    expect(JSON.stringify(between.json.changes)).not.toContain('Secret draft');
    const image = await session('GET', `${base}/diff.png?from=1&to=latest`);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
    for (const [method, path] of [
      ['GET', `${base}/diff`],
      ['GET', `${base}/diff?from=1&to=draft`],
      ['GET', `${base}/diff.png?from=draft&to=1`],
      ['POST', `${base}/versions`],
      ['POST', `${base}/versions/1/rollback`],
    ] as const) {
      const res = await session(method, path, { body: method === 'POST' ? {} : undefined });
      expect([method, path, res.status, res.json?.error?.code]).toEqual([method, path, 403, 'FORBIDDEN']);
    }
    // The draft was not touched.
    expect((await api('GET', `/v1/templates/${id}`)).json.revision).toBe(3);
  });
});
