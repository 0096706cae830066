/** The store conformance suite: every case runs on SQLite and, when configured, on PostgreSQL. */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, testDatabase } from '../../test/harness/backends.ts';
import { createBlankDocument } from '../design/index.ts';
import type { Store } from './index.ts';
import { decodeCursor } from './paging.ts';
import { prepareQuery } from './prepared.ts';
import { RenderNoLongerPending } from './renders.ts';
import { changeCredits } from './workspaces.ts';

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `store on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let store: Store;

      beforeEach(async () => {
        database = testDatabase(backend.name);
        store = await database.open();
      });
      afterEach(async () => {
        await store.close();
        await database.destroy();
      });

      it('creates a workspace with an initial grant recorded in the ledger', async () => {
        const ws = await store.workspaces.create({ name: 'acme', credits: 7, actor: 'test' });
        expect(ws).toMatchObject({ name: 'acme', creditBalance: 7, suspended: false });
        expect(ws.id).toMatch(/^ws_/);
        const ledger = await store.workspaces.ledger(ws.id);
        expect(ledger.map((e) => [e.delta, e.balanceAfter])).toEqual([[7, 7]]);
      });

      it('never lets a debit take the balance below zero, even when many race', async () => {
        const ws = await store.workspaces.create({ name: 'race', credits: 5, actor: 'test' });
        const { db } = store.handle;
        const attempts = Array.from({ length: 20 }, () =>
          db
            .transaction()
            .execute((trx) =>
              changeCredits(trx, { workspaceId: ws.id, delta: -1, reason: 'render', actor: 'test' }),
            ),
        );
        const results = await Promise.all(attempts);
        expect(results.filter((r) => r !== null)).toHaveLength(5);
        expect((await store.workspaces.get(ws.id))?.creditBalance).toBe(0);
        const ledger = await store.workspaces.ledger(ws.id);
        expect(ledger.reduce((sum, e) => sum + e.delta, 0)).toBe(0);
        expect(ledger.at(-1)?.balanceAfter).toBe(0);
      });

      it("runs a prepared query with each call's values, and refuses one that lost a parameter", async () => {
        const a = await store.workspaces.create({ name: 'first', credits: 1, actor: 'test' });
        const b = await store.workspaces.create({ name: 'second', credits: 2, actor: 'test' });
        const { db } = store.handle;
        const byId = prepareQuery(
          () => db,
          ['id'],
          (param) =>
            db.selectFrom('workspaces').select(['name', 'credit_balance']).where('id', '=', param('id')),
        );
        expect(await byId({ id: a.id })).toEqual([{ name: 'first', credit_balance: 1 }]);
        expect(await byId({ id: b.id })).toEqual([{ name: 'second', credit_balance: 2 }]);
        expect(await byId({ id: 'ws_missing' })).toEqual([]);
        // A parameter the query does not carry as a plain value would be silently ignored: refused.
        const lost = prepareQuery(
          () => db,
          ['id'],
          () => db.selectFrom('workspaces').select('name').where('id', '=', a.id),
        );
        await expect(lost({ id: b.id })).rejects.toThrow(/lost its parameters: id/);
      });

      it('refuses an operator withdrawal beyond the balance', async () => {
        const ws = await store.workspaces.create({ name: 'w', credits: 2, actor: 'test' });
        const change = (delta: number) =>
          store.workspaces.adjustCredits({
            workspaceId: ws.id,
            delta,
            reason: 'x',
            actor: 'op',
            ceiling: 1e15,
          });
        expect(await change(-3)).toEqual({ kind: 'insufficient', balance: 2 });
        expect(await change(-2)).toEqual({ kind: 'changed', balance: 0 });
      });

      it('tells which file keys a live render output or an asset records', async () => {
        const ws = await store.workspaces.create({ name: 'f', credits: 5, actor: 'test' });
        const input = {
          workspaceId: ws.id,
          templateId: 'tpl_x',
          format: 'png',
          fileCount: 1,
          actor: 'test',
          instanceId: 'ins_a',
        };
        const keys: string[] = [];
        for (const hash of ['h1', 'h2']) {
          const begun = await store.renders.begin({ ...input, identityHash: hash });
          if (begun.kind !== 'claimed') throw new Error('expected a claim');
          const fileKey = `renders/${ws.id}/tok${hash}/${begun.renderId}.png`;
          keys.push(fileKey);
          await store.renders.complete(
            begun.renderId,
            {},
            [{ id: begun.renderId, position: 0, fileKey, result: {} }],
            ws.id,
          );
          if (hash === 'h2') await store.renders.markExpired(begun.renderId);
        }
        const unknown = `renders/${ws.id}/tokzz/rnd_unknown.png`;
        expect(await store.renders.referencedFileKeys([...keys, unknown])).toEqual(new Set([keys[0]]));
        await store.assets.create({
          id: 'ast_cccccccccccccccccccccc',
          workspaceId: ws.id,
          kind: 'image',
          mimeType: 'image/png',
          byteSize: 1,
          width: 1,
          height: 1,
          fontFamily: null,
          fileKey: `assets/${ws.id}/tok/ast_cccccccccccccccccccccc.png`,
          createdAt: new Date().toISOString(),
        });
        expect(
          await store.assets.referencedFileKeys([
            `assets/${ws.id}/tok/ast_cccccccccccccccccccccc.png`,
            `assets/${ws.id}/tok/ast_missing.png`,
          ]),
        ).toEqual(new Set([`assets/${ws.id}/tok/ast_cccccccccccccccccccccc.png`]));
        expect(await store.renders.referencedFileKeys([])).toEqual(new Set());
      });

      it('suspends and renames a workspace', async () => {
        const ws = await store.workspaces.create({ name: 'w', credits: 0, actor: 'test' });
        const updated = await store.workspaces.update(ws.id, { suspended: true, name: 'w2' });
        expect(updated).toMatchObject({ suspended: true, name: 'w2' });
        expect(await store.workspaces.update('ws_missingmissingmissing', { name: 'x' })).toBeNull();
      });

      it('stores API keys hashed, finds them by the clear key, and forgets revoked ones', async () => {
        const ws = await store.workspaces.create({ name: 'k', credits: 0, actor: 'test' });
        const created = await store.apiKeys.create({
          workspaceId: ws.id,
          name: 'ci',
          scopes: ['template:read'],
        });
        expect(created.key).toMatch(/^plt_[0-9A-Za-z]{32,}$/);
        expect(created.prefix).toBe(`${created.key.slice(0, 8)}…`);
        const rows = await store.handle.db.selectFrom('api_keys').selectAll().execute();
        expect(JSON.stringify(rows)).not.toContain(created.key);
        expect((await store.apiKeys.findActive(created.key))?.scopes).toEqual(['template:read']);
        expect(await store.apiKeys.findActive(`${created.key}x`)).toBeNull();
        expect(await store.apiKeys.revoke(created.id, 'ws_other')).toBeNull();
        expect(await store.apiKeys.findActive(created.key)).not.toBeNull();
        expect(await store.apiKeys.revoke(created.id, null)).toBe(ws.id);
        expect(await store.apiKeys.findActive(created.key)).toBeNull();
        expect((await store.apiKeys.list(ws.id))[0]?.revokedAt).not.toBeNull();
      });

      it('saves templates with revisions and refuses a stale expected revision', async () => {
        const ws = await store.workspaces.create({ name: 't', credits: 0, actor: 'test' });
        const t = await store.templates.create({
          workspaceId: ws.id,
          name: 'a',
          document: createBlankDocument(100, 50),
        });
        expect(t).toMatchObject({
          revision: 1,
          width: 100,
          height: 50,
          pageCount: 1,
          shared: false,
          ownerUserId: null,
        });
        const saved = await store.templates.saveDocument(t.id, {
          document: createBlankDocument(200, 80),
          expectedRevision: 1,
        });
        expect(saved).toMatchObject({ kind: 'saved', template: { revision: 2, width: 200 } });
        expect(
          await store.templates.saveDocument(t.id, {
            document: createBlankDocument(1, 1),
            expectedRevision: 1,
          }),
        ).toEqual({ kind: 'stale', revision: 2 });
        expect(
          await store.templates.saveDocument('tpl_missing', { document: createBlankDocument(1, 1) }),
        ).toEqual({ kind: 'missing' });
        const meta = await store.templates.updateMeta(t.id, { name: 'b', shared: true });
        expect(meta).toMatchObject({ name: 'b', shared: true, revision: 2 });
        await store.templates.delete(t.id);
        expect(await store.templates.get(t.id)).toBeNull();
      });

      it('pages through templates newest first with an opaque cursor, per workspace', async () => {
        const ws = await store.workspaces.create({ name: 'p', credits: 0, actor: 'test' });
        const other = await store.workspaces.create({ name: 'o', credits: 0, actor: 'test' });
        await store.templates.create({
          workspaceId: other.id,
          name: 'foreign',
          document: createBlankDocument(10, 10),
        });
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          ids.push(
            (
              await store.templates.create({
                workspaceId: ws.id,
                name: `t${i}`,
                document: createBlankDocument(10, 10),
              })
            ).id,
          );
        }
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const after = cursor === null ? undefined : (decodeCursor(cursor) ?? undefined);
          const page = await store.templates.list(ws.id, { limit: 2, ...(after ? { after } : {}) });
          seen.push(...page.items.map((t) => t.id));
          cursor = page.nextCursor;
        } while (cursor);
        expect(seen.sort()).toEqual([...ids].sort());
      });

      it('keeps assets per workspace and lists fonts', async () => {
        const ws = await store.workspaces.create({ name: 'a', credits: 0, actor: 'test' });
        const base = {
          workspaceId: ws.id,
          byteSize: 3,
          width: null,
          height: null,
          createdAt: new Date().toISOString(),
        };
        await store.assets.create({
          ...base,
          id: 'ast_aaaaaaaaaaaaaaaaaaaaaa',
          kind: 'font',
          mimeType: 'font/ttf',
          fontFamily: 'X',
          fileKey: 'assets/a/b/c',
        });
        await store.assets.create({
          ...base,
          id: 'ast_bbbbbbbbbbbbbbbbbbbbbb',
          kind: 'image',
          mimeType: 'image/png',
          fontFamily: null,
          fileKey: 'assets/a/b/d',
        });
        expect((await store.assets.fonts(ws.id)).map((a) => a.fontFamily)).toEqual(['X']);
        expect((await store.assets.list(ws.id, { limit: 10 })).items).toHaveLength(2);
        expect(await store.assets.getMany(ws.id, ['ast_bbbbbbbbbbbbbbbbbbbbbb'])).toHaveLength(1);
      });

      it('never records as done a render that was refunded meanwhile', async () => {
        const ws = await store.workspaces.create({ name: 'r', credits: 2, actor: 'test' });
        const input = {
          workspaceId: ws.id,
          templateId: 'tpl_x',
          identityHash: 'h1',
          format: 'png',
          fileCount: 1,
          actor: 'test',
          instanceId: 'ins_a',
        };
        const begun = await store.renders.begin(input);
        if (begun.kind !== 'claimed') throw new Error('expected a claim');
        expect(begun.balanceAfter).toBe(1);
        expect(
          await store.renders.fail(begun.renderId, { reason: 'interrupted' }, 'refund: render interrupted'),
        ).toBe(true);
        await expect(store.renders.complete(begun.renderId, {}, [], ws.id)).rejects.toBeInstanceOf(
          RenderNoLongerPending,
        );
        expect((await store.workspaces.get(ws.id))?.creditBalance).toBe(2);
        expect((await store.renders.getJob(begun.renderId))?.status).toBe('failed');
        // The identity is free again: the next identical request claims (and pays) anew.
        const again = await store.renders.begin(input);
        expect(again.kind).toBe('claimed');
      });

      it('leaves every commit after a claim waiting for the disk, even when claims interleave with other writes', async () => {
        const ws = await store.workspaces.create({ name: 's', credits: 5, actor: 'test' });
        const input = (identityHash: string) => ({
          workspaceId: ws.id,
          templateId: 'tpl_x',
          identityHash,
          format: 'png',
          fileCount: 1,
          actor: 'test',
          instanceId: 'ins_a',
        });
        // Concurrent claims interleave with ordinary writes on the one SQLite connection.
        const outcomes = await Promise.all([
          store.renders.begin(input('a')),
          store.workspaces.adjustCredits({
            workspaceId: ws.id,
            delta: 1,
            reason: 'x',
            actor: 'op',
            ceiling: 1e15,
          }),
          store.renders.begin(input('b')),
          store.renders.begin(input('a')),
        ]);
        const [firstA, changed, b, secondA] = outcomes.map((o) => o.kind);
        expect([changed, b]).toEqual(['changed', 'claimed']);
        // On PostgreSQL the two claims of `a` run on two connections: either may win, never both.
        expect([firstA, secondA].sort()).toEqual(['claimed', 'existing']);
        expect((await store.workspaces.get(ws.id))?.creditBalance).toBe(4);
        const { db } = store.handle;
        if (store.handle.dialect === 'sqlite') {
          const rows = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
          expect(rows.rows[0]?.synchronous).toBe(2); // FULL
        } else {
          const rows = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db);
          expect(rows.rows[0]?.synchronous_commit).toBe('on');
        }
      });

      it('lets exactly one claimant take a meta claim', async () => {
        const results = await Promise.all([store.meta.claim('boot', '1'), store.meta.claim('boot', '2')]);
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('keeps everything across a restart (close and reopen)', async () => {
        const ws = await store.workspaces.create({ name: 'r', credits: 3, actor: 'test' });
        const t = await store.templates.create({
          workspaceId: ws.id,
          name: 'kept',
          document: createBlankDocument(10, 10),
        });
        await store.close();
        store = await database.open();
        expect((await store.workspaces.get(ws.id))?.creditBalance).toBe(3);
        expect((await store.templates.get(t.id))?.name).toBe('kept');
      });
    },
  );
}
