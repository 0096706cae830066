/**
 * The template rules every entry point shares, per principal, on a real database: an API key acts
 * for the workspace; a multi-tenant embed session sees its user's templates plus shared ones, may
 * change only its own, and finds other users' templates absent; a session of an embed without
 * multi-tenant data acts for the workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabase } from '../../test/harness/backends.ts';
import type { Principal } from '../auth/index.ts';
import { SCOPES } from '../auth/index.ts';
import { createBlankDocument } from '../design/index.ts';
import type { Store } from '../store/index.ts';
import { TemplateService } from './service.ts';

let database: TestDatabase;
let store: Store;
let templates: TemplateService;
let workspaceId = '';

const apiKey = (): Principal => ({
  workspaceId,
  scopes: new Set(SCOPES),
  actor: { type: 'api_key', id: 'key_test', prefix: 'plt_test…' },
  address: null,
});
const session = (userId: string | null, isolated = true, publishedOnly = false): Principal => ({
  workspaceId,
  scopes: new Set(SCOPES),
  actor: { type: 'embed_session', embedId: 'emb_test', userId, isolated, publishedOnly },
  address: null,
});
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (e: { code?: string }) => e.code,
  );

beforeAll(async () => {
  database = testDatabase('sqlite');
  store = await database.open();
  templates = new TemplateService(store, { baseUrl: 'http://localhost' });
  workspaceId = (await store.workspaces.create({ name: 'w', credits: 0, actor: 'test' })).id;
});
afterAll(async () => {
  await store.close();
  await database.destroy();
});

describe('template access per principal', () => {
  it('a tenant sees its own and shared templates, never another user’s', async () => {
    const ada = await templates.create(session('ada'), { name: 'ada’s', width: 10, height: 10 });
    const bob = await templates.create(session('bob'), { name: 'bob’s', width: 10, height: 10 });
    const shared = await templates.create(apiKey(), { name: 'shared', width: 10, height: 10, shared: true });
    const workspaceOnly = await templates.create(apiKey(), { name: 'ws', width: 10, height: 10 });
    expect([ada.ownerUserId, shared.ownerUserId]).toEqual(['ada', null]);

    const listed = await templates.list(session('ada'), { limit: 100 });
    expect(listed.items.map((t) => t.id).sort()).toEqual([ada.id, shared.id].sort());
    expect(await code(templates.get(session('ada'), bob.id))).toBe('NOT_FOUND');
    expect(await code(templates.get(session('ada'), workspaceOnly.id))).toBe('NOT_FOUND');
    expect(await code(templates.renderMeta(session('ada'), bob.id))).toBe('NOT_FOUND');

    const everything = await templates.list(apiKey(), { limit: 100 });
    expect(everything.items).toHaveLength(4);
  });

  it('a tenant may change only its own: shared is read-only (403), another user’s is absent (404)', async () => {
    const own = await templates.create(session('cy'), { name: 'own', width: 10, height: 10 });
    const shared = await templates.create(apiKey(), { name: 'shared', width: 10, height: 10, shared: true });
    const other = await templates.create(session('dee'), { name: 'other', width: 10, height: 10 });
    const document = createBlankDocument(20, 20);
    expect(await code(templates.save(session('cy'), own.id, { document }))).toBe('ok');
    expect(await code(templates.save(session('cy'), shared.id, { document }))).toBe('FORBIDDEN');
    expect(await code(templates.updateMeta(session('cy'), shared.id, { name: 'x' }))).toBe('FORBIDDEN');
    expect(await code(templates.remove(session('cy'), shared.id))).toBe('FORBIDDEN');
    expect(await code(templates.save(session('cy'), other.id, { document }))).toBe('NOT_FOUND');
    expect(await code(templates.remove(session('cy'), other.id))).toBe('NOT_FOUND');
    expect(await code(templates.save(apiKey(), other.id, { document }))).toBe('ok');
  });

  it("without multi-tenant data a session acts for the workspace's own templates, not end-users'", async () => {
    const created = await templates.create(session('eve', false), { name: 'team', width: 10, height: 10 });
    expect(created.ownerUserId).toBeNull();
    const document = createBlankDocument(5, 5);
    expect(await code(templates.save(session('gus', false), created.id, { document }))).toBe('ok');
    const fays = await templates.create(session('fay'), { name: 'fay’s', width: 10, height: 10 });
    expect(await code(templates.save(session('gus', false), fays.id, { document }))).toBe('NOT_FOUND');
    expect(await code(templates.get(session('gus', false), fays.id))).toBe('NOT_FOUND');
  });

  it('another workspace’s template is a mismatch, a malformed id not found, a bad cursor invalid', async () => {
    const elsewhere = (await store.workspaces.create({ name: 'x', credits: 0, actor: 'test' })).id;
    const foreign = await templates.create(
      { ...apiKey(), workspaceId: elsewhere },
      { name: 'f', width: 10, height: 10 },
    );
    expect(await code(templates.get(apiKey(), foreign.id))).toBe('WORKSPACE_MISMATCH');
    expect(await code(templates.get(apiKey(), 'nonsense'))).toBe('NOT_FOUND');
    expect(await code(templates.list(apiKey(), { limit: 5, cursor: '%%%' }))).toBe('VALIDATION_FAILED');
  });
});
