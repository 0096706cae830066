/**
 * The OpenAPI document is fit for generated clients: the committed openapi-typescript types
 * (clients/typescript/src/openapi.ts) are exactly what the running service's /openapi.json gives, and an
 * openapi-fetch client typed by them drives the real service. `tsc --noEmit` checks this file, so a
 * field the document does not declare fails the type check (see the `@ts-expect-error` lines).
 */
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components, paths } from '../clients/typescript/src/openapi.ts';
import { openApiTypes, TYPES_PATH } from '../scripts/openapi-types.ts';
import { startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

type RenderRequest = NonNullable<
  paths['/v1/templates/{id}/render']['post']['requestBody']
>['content']['application/json'];

describe('OpenAPI and a generated client', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ key } = await workspaceWithKey(server.base, { credits: 10 }));
  });
  afterAll(() => server.close());

  it('the committed client types are those of the served document (npm run openapi:types)', async () => {
    const document = await (await fetch(`${server.base}/openapi.json`)).json();
    expect(await openApiTypes(document)).toBe(readFileSync(TYPES_PATH, 'utf8'));
  });

  it('every documented operation has a unique operationId, a summary, a declared tag and security', async () => {
    const document = await (await fetch(`${server.base}/openapi.json`)).json();
    const tags = new Set(document.tags.map((tag: { name: string }) => tag.name));
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, Record<string, unknown>>),
    );
    expect(operations.length).toBeGreaterThanOrEqual(21);
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of operations) {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.summary).toEqual(expect.any(String));
      expect((op.tags as string[]).every((tag) => tags.has(tag))).toBe(true);
      const security = op.security as Record<string, string[]>[];
      const responses = op.responses as Record<string, unknown>;
      // Public embed routes (info, session minting) say so with an empty requirement list.
      if (security.length === 0) {
        expect(String(op.operationId)).toMatch(/^(getEmbedInfo|createEmbedSession)$/);
        expect(responses['401']).toBeUndefined();
        continue;
      }
      expect(security).toHaveLength(1);
      // Operator routes answer a bad credential with 401, API-key routes with 403; an embed session
      // answers a bad token with 401 INVALID_SESSION and a missing scope with 403; a signed URL
      // answers a bad signature with 403.
      const [scheme] = Object.keys(security[0] ?? {});
      const expected = {
        adminToken: ['401'],
        apiKey: ['403'],
        embedSession: ['401', '403'],
        signedUrl: ['403'],
      }[String(scheme)];
      expect(expected).toBeDefined();
      for (const status of expected ?? []) expect(responses[status]).toBeDefined();
      if (scheme === 'adminToken') expect(responses['403']).toBeUndefined();
      if (scheme === 'apiKey' || scheme === 'signedUrl') expect(responses['401']).toBeUndefined();
    }
  });

  it('creates and renders a template through openapi-fetch, typed by the document', async () => {
    const client = createClient<paths>({ baseUrl: server.base, headers: { authorization: `Bearer ${key}` } });

    const created = await client.POST('/v1/templates', { body: { name: 'Typed', width: 320, height: 200 } });
    expect(created.response.status).toBe(201);
    if (!created.data) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
    const template = created.data;
    expectTypeOf(template).toEqualTypeOf<components['schemas']['TemplateWithDocument']>();
    expect(template).toMatchObject({ name: 'Typed', width: 320, height: 200, revision: 1, pageCount: 1 });
    // @ts-expect-error: a template has no such field, and the typed client knows it
    expect(template.nmae).toBeUndefined();

    const rendered = await client.POST('/v1/templates/{id}/render', {
      params: { path: { id: template.id } },
      body: { format: 'png', modifications: { title: 'Hello' }, idempotencyKey: 'typed-1' },
    });
    expect(rendered.response.status).toBe(200);
    const result = rendered.data;
    // The 202 of a background render (`status`) and `{pages}` are the other answers the types know.
    if (!result || 'pages' in result || 'status' in result)
      throw new Error(`render failed: ${JSON.stringify(rendered.error)}`);
    expectTypeOf(result.credits.charged).toEqualTypeOf<number>();
    expectTypeOf(result.format).toEqualTypeOf<'png' | 'jpeg' | 'pdf' | 'mp4' | 'webm' | 'gif'>();
    expect(result.credits.charged).toBe(1);
    expect(result.credits.balanceAfter).toBe(9);
    expect(result).toMatchObject({ templateId: template.id, format: 'png', width: 320, height: 200 });
    // @ts-expect-error: the render request has no `formats` field
    const misspelt: RenderRequest = { formats: 'png' };
    expect(misspelt).toBeDefined();

    const again = await client.GET('/v1/renders/{id}', { params: { path: { id: result.id } } });
    expect(again.data).toMatchObject({ id: result.id, url: result.url, credits: { charged: 0 } });
  });

  it('types error answers with the envelope', async () => {
    const client = createClient<paths>({ baseUrl: server.base, headers: { authorization: `Bearer ${key}` } });
    const missing = await client.GET('/v1/templates/{id}', { params: { path: { id: 'tpl_nope' } } });
    expect(missing.response.status).toBe(404);
    expectTypeOf(missing.error).toEqualTypeOf<components['schemas']['Error'] | undefined>();
    expect(missing.error?.error.code).toBe('NOT_FOUND');
  });
});
