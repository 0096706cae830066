/**
 * Group commit on both databases: writes arriving together share one transaction and one synced
 * commit; a lone write commits at once; a failing write fails alone; nobody is answered before
 * the commit holding their write; and settlements and refunds of renders use it, webhook events
 * included. Commits are counted from the database driver's own query log (begin/commit/rollback as
 * sent), not from the batcher.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type BackendName, backends, type TestDatabase, testDatabase } from '../../test/harness/backends.ts';
import { GroupCommit } from './group-commit.ts';
import { RenderNoLongerPending, RenderRepository } from './renders.ts';
import type { Database } from './schema.ts';
import SQLite from './sqlite.ts';
import { WebhookRepository } from './webhooks.ts';
import { WorkspaceRepository } from './workspaces.ts';

const root = new URL('../..', import.meta.url).pathname;

/**
 * A second Kysely over a migrated test database whose query log records every transaction
 * statement, in order, into `timeline` (tests add their own entries beside them).
 */
function countedKysely(database: TestDatabase, timeline: string[]): Kysely<Database> {
  const log = (event: LogEvent) => {
    const statement = event.query.sql.trim().toLowerCase();
    if (event.level === 'query' && ['begin', 'commit', 'rollback'].includes(statement))
      timeline.push(statement);
    // How a commit that does not wait for the disk is made (db.ts's transactionWithoutSync).
    if (event.level === 'query' && /^(set local synchronous_commit|pragma synchronous =)/.test(statement))
      timeline.push(statement);
  };
  if (database.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: database.databaseUrl,
      options: `-c search_path=${database.pgSchema}`,
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
  }
  const file = new SQLite(join(database.dataDir, 'platen.db'));
  // As the service opens it (db.ts): every commit waits for the disk.
  file.pragma('synchronous = FULL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: file }), log });
}

const count = (timeline: string[], statement: string) => timeline.filter((s) => s === statement).length;

/** The synced-commit setting the transaction runs with: FULL (2) on SQLite, `on` on PostgreSQL. */
async function commitSetting(trx: Transaction<Database>, backend: BackendName): Promise<string> {
  if (backend === 'postgres')
    return (await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(trx)).rows[0]
      ?.s as string;
  return String((await sql<{ synchronous: number }>`pragma synchronous`.execute(trx)).rows[0]?.synchronous);
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `group commit on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let db: Kysely<Database>;
      let timeline: string[];
      let group: GroupCommit;

      beforeEach(async () => {
        database = testDatabase(backend.name);
        await (await database.open()).close();
        timeline = [];
        db = countedKysely(database, timeline);
        group = new GroupCommit(db);
      });
      afterEach(async () => {
        vi.useRealTimers();
        await db.destroy();
        await database.destroy();
      });

      const put = (key: string) => async (trx: Transaction<Database>) => {
        await trx.insertInto('platen_meta').values({ key, value: 'v' }).execute();
        return key;
      };
      const keys = async () =>
        (await db.selectFrom('platen_meta').select('key').where('key', 'like', 'gc-%').execute())
          .map((r) => r.key)
          .sort();

      it('runs writes that arrive together in one transaction with one commit', async () => {
        const names = Array.from({ length: 10 }, (_, i) => `gc-${i}`);
        expect(await Promise.all(names.map((name) => group.run(put(name))))).toEqual(names);
        expect(timeline).toEqual(['begin', 'commit']);
        expect(await keys()).toEqual([...names].sort());
      });

      it('commits a lone write at once: no timer stands between it and its commit', async () => {
        await db.selectFrom('platen_meta').select('key').execute(); // the pool's connection, opened
        // Timers frozen: a batcher that waited on one would never commit.
        vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
        try {
          expect(await group.run(put('gc-alone'))).toBe('gc-alone');
        } finally {
          vi.useRealTimers();
        }
        expect(timeline).toEqual(['begin', 'commit']);
      });

      it('takes writes that arrive while a batch runs into the next batch, one commit for them all', async () => {
        let release = () => {};
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        let begun = () => {};
        const started = new Promise<void>((resolve) => {
          begun = resolve;
        });
        const first = group.run(async (trx) => {
          begun();
          await gate;
          return put('gc-first')(trx);
        });
        await started;
        expect(timeline).toEqual(['begin']);
        const later = ['gc-a', 'gc-b', 'gc-c', 'gc-d'].map((name) => group.run(put(name)));
        release();
        await Promise.all([first, ...later]);
        expect(timeline).toEqual(['begin', 'commit', 'begin', 'commit']);
        expect(await keys()).toEqual(['gc-a', 'gc-b', 'gc-c', 'gc-d', 'gc-first']);
      });

      it('fails a failing write alone: its neighbours commit, each caller gets its own outcome', async () => {
        await db.insertInto('platen_meta').values({ key: 'gc-taken', value: 'v' }).execute();
        timeline.length = 0;
        const outcomes = await Promise.allSettled([
          group.run(put('gc-1')),
          group.run(put('gc-taken')), // a real constraint error (it aborts a PostgreSQL transaction)
          group.run(put('gc-2')),
          group.run(async () => {
            throw new Error('refused by its own rule');
          }),
          group.run(put('gc-3')),
        ]);
        expect(outcomes.map((o) => o.status)).toEqual([
          'fulfilled',
          'rejected',
          'fulfilled',
          'rejected',
          'fulfilled',
        ]);
        expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/unique|primary key/i);
        expect((outcomes[3] as PromiseRejectedResult).reason).toEqual(new Error('refused by its own rule'));
        expect(await keys()).toEqual(['gc-1', 'gc-2', 'gc-3', 'gc-taken']);
        // The batch rolled back, then each ran alone: three commits, two more rollbacks.
        expect([count(timeline, 'commit'), count(timeline, 'rollback')]).toEqual([3, 3]);
      });

      it('answers every caller only after the commit that holds its write', async () => {
        await db.insertInto('platen_meta').values({ key: 'gc-taken', value: 'v' }).execute();
        timeline.length = 0;
        const names = ['gc-1', 'gc-taken', 'gc-2', 'gc-3'];
        const calls = names.map((name, i) =>
          group
            .run(async (trx) => {
              timeline.push(`work ${i}`);
              return put(name)(trx);
            })
            .then(
              () => timeline.push(`answered ${i}`),
              () => timeline.push(`refused ${i}`),
            ),
        );
        // Then a second wave, into the batch after the first.
        await new Promise((resolve) => setImmediate(resolve));
        calls.push(group.run(put('gc-4')).then(() => timeline.push('answered 4')));
        await Promise.all(calls);
        for (const [i] of names.entries()) {
          const answer = timeline.findIndex((s) => s === `answered ${i}` || s === `refused ${i}`);
          const lastWork = timeline.lastIndexOf(`work ${i}`);
          expect(answer).toBeGreaterThan(lastWork);
          expect(timeline.slice(lastWork, answer)).toContain(i === 1 ? 'rollback' : 'commit');
        }
        expect(timeline.slice(-3)).toEqual(['begin', 'commit', 'answered 4']);
      });
    },
  );
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `settlements on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let db: Kysely<Database>;
      let timeline: string[];
      let renders: RenderRepository;
      let workspaces: WorkspaceRepository;
      let webhooks: WebhookRepository;

      beforeEach(async () => {
        database = testDatabase(backend.name);
        await (await database.open()).close();
        timeline = [];
        db = countedKysely(database, timeline);
        renders = new RenderRepository(db, backend.name);
        workspaces = new WorkspaceRepository(db);
        webhooks = new WebhookRepository(db, backend.name);
      });
      afterEach(async () => {
        await db.destroy();
        await database.destroy();
      });

      /** A workspace with a webhook for render events and `n` claimed, charged renders. */
      async function claimed(n: number) {
        const ws = await workspaces.create({ name: 'gc', credits: 100, actor: 'test' });
        await webhooks.create({
          workspaceId: ws.id,
          url: 'https://example.com/hook',
          events: ['render.completed', 'render.failed'],
          secret: 'whsec_test',
        });
        const ids: string[] = [];
        for (let i = 0; i < n; i++) {
          const begun = await renders.begin({
            workspaceId: ws.id,
            templateId: 'tpl_gc',
            identityHash: `identity-${i}`,
            format: 'png',
            fileCount: 1,
            actor: 'test',
            instanceId: 'ins_gc',
          });
          if (begun.kind !== 'claimed') throw new Error('expected a claim');
          ids.push(begun.renderId);
        }
        timeline.length = 0;
        return { workspaceId: ws.id, ids };
      }

      const event = (workspaceId: string, type: string, renderId: string) => (trx: Transaction<Database>) =>
        webhooks.writeEvent(trx, { workspaceId, type, payload: JSON.stringify({ renderId }) }).then(() => {});
      const outbox = async () =>
        (await db.selectFrom('webhook_outbox').select(['event_type', 'payload']).execute())
          .map((r) => `${r.event_type} ${(JSON.parse(r.payload) as { renderId: string }).renderId}`)
          .sort();

      it('records renders finishing together, done and refunded, in one synced commit with their events', async () => {
        const { workspaceId, ids } = await claimed(6);
        const settings: string[] = [];
        const settled = ids.map((id, i) =>
          i < 4
            ? renders.complete(
                id,
                { id },
                [{ id, position: 0, fileKey: `renders/${workspaceId}/${id}.png`, result: { id } }],
                workspaceId,
                async (trx) => {
                  settings.push(await commitSetting(trx, backend.name));
                  await event(workspaceId, 'render.completed', id)(trx);
                },
              )
            : renders.fail(id, { code: 'RENDER_FAILED' }, undefined, event(workspaceId, 'render.failed', id)),
        );
        await Promise.all(settled);
        expect(timeline).toEqual(['begin', 'commit']);
        expect(settings).toEqual(Array(4).fill(backend.name === 'postgres' ? 'on' : '2'));
        expect((await Promise.all(ids.map((id) => renders.getJob(id)))).map((j) => j?.status)).toEqual([
          'done',
          'done',
          'done',
          'done',
          'failed',
          'failed',
        ]);
        expect((await workspaces.get(workspaceId))?.creditBalance).toBe(100 - 4);
        expect(await outbox()).toEqual(
          ids.map((id, i) => `${i < 4 ? 'render.completed' : 'render.failed'} ${id}`).sort(),
        );
      });

      it('claims a render answered when it finishes without waiting for the disk, a background one (answered 202 on its claim) waiting', async () => {
        const ws = await workspaces.create({ name: 'gc', credits: 10, actor: 'test' });
        const begin = (identityHash: string, job?: string) =>
          renders.begin({
            workspaceId: ws.id,
            templateId: 'tpl_gc',
            identityHash,
            format: 'png',
            fileCount: 1,
            actor: 'test',
            instanceId: 'ins_gc',
            ...(job ? { job } : {}),
          });
        timeline.length = 0;
        expect((await begin('now')).kind).toBe('claimed');
        expect(timeline).toEqual(
          backend.name === 'postgres'
            ? ['begin', 'set local synchronous_commit = off', 'commit']
            : ['pragma synchronous = normal', 'begin', 'commit', 'pragma synchronous = full'],
        );
        timeline.length = 0;
        expect((await begin('later', '{}')).kind).toBe('claimed');
        // The connection's own setting: FULL on SQLite (as db.ts opens it), `on` on PostgreSQL.
        expect(timeline).toEqual(['begin', 'commit']);
      });

      it('refuses a render refunded meanwhile alone, with its event; its neighbours are recorded', async () => {
        const { workspaceId, ids } = await claimed(3);
        const [first, refunded, third] = ids as [string, string, string];
        expect(await renders.fail(refunded, { reason: 'interrupted' }, 'refund: render interrupted')).toBe(
          true,
        );
        timeline.length = 0;
        const complete = (id: string) =>
          renders.complete(id, { id }, [], workspaceId, event(workspaceId, 'render.completed', id));
        const outcomes = await Promise.allSettled([complete(first), complete(refunded), complete(third)]);
        expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(RenderNoLongerPending);
        expect((await renders.getJob(first))?.status).toBe('done');
        expect((await renders.getJob(refunded))?.status).toBe('failed');
        expect((await renders.getJob(third))?.status).toBe('done');
        // The refused one's event was rolled back with it; the others' stayed with their settlement.
        expect(await outbox()).toEqual([`render.completed ${first}`, `render.completed ${third}`].sort());
        expect((await workspaces.get(workspaceId))?.creditBalance).toBe(100 - 2);
      });

      it('refunds a render once when two refunds of it share a batch', async () => {
        const { workspaceId, ids } = await claimed(1);
        const id = ids[0] as string;
        const twice = await Promise.all([renders.fail(id, { a: 1 }), renders.fail(id, { b: 2 })]);
        expect(twice.sort()).toEqual([false, true]);
        expect(timeline).toEqual(['begin', 'commit']);
        expect((await workspaces.get(workspaceId))?.creditBalance).toBe(100);
        const refunds = (await workspaces.ledger(workspaceId)).filter(
          (e) => e.delta > 0 && e.renderId === id,
        );
        expect(refunds).toHaveLength(1);
      });

      it('keeps every acknowledged settlement when the process is killed the moment it is acknowledged', async () => {
        // A child settles eight renders at once and kills itself (SIGKILL: nothing closes, nothing
        // flushes) in the very callback that learns the first one is done.
        const child = spawnSync(
          process.execPath,
          [
            '--import',
            'tsx',
            '--input-type=module',
            '-e',
            `
            import { writeSync } from 'node:fs';
            import { openStore } from ${JSON.stringify(join(root, 'src/store/index.ts'))};
            const store = await openStore(JSON.parse(process.env.GC_STORE));
            const ws = await store.workspaces.create({ name: 'crash', credits: 10, actor: 'test' });
            const ids = [];
            for (let i = 0; i < 8; i++) {
              const begun = await store.renders.begin({ workspaceId: ws.id, templateId: 'tpl', identityHash: 'h' + i,
                format: 'png', fileCount: 1, actor: 'test', instanceId: 'ins' });
              ids.push(begun.renderId);
            }
            for (const id of ids)
              store.renders.complete(id, { id }, [], ws.id).then(() => {
                writeSync(1, id + '\\n');
                process.kill(process.pid, 'SIGKILL');
              });
            `,
          ],
          {
            cwd: root,
            encoding: 'utf8',
            env: {
              ...process.env,
              GC_STORE: JSON.stringify({
                dataDir: database.dataDir,
                databaseUrl: database.databaseUrl,
                pgSchema: database.pgSchema,
              }),
            },
          },
        );
        expect(child.signal, child.stderr).toBe('SIGKILL');
        const acknowledged = child.stdout.trim().split('\n');
        expect(acknowledged).toHaveLength(1);
        // Reopened as after a restart: the acknowledged render is done.
        const store = await database.open();
        try {
          expect((await store.renders.getJob(acknowledged[0] as string))?.status).toBe('done');
        } finally {
          await store.close();
        }
      });
    },
  );
}
