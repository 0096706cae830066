/**
 * Thumbnails without HTTP: the coalescing queue's bounds (one run in flight and one waiting per
 * key, debounce, concurrency, the pending limit, holding back while busy, close), and the service
 * on a real store and real files with an injectable renderer: the replaced file is deleted, a
 * failing render keeps the previous thumbnail, a render that lost to a newer revision or to a
 * deletion deletes its own file, and the sweep keeps what a template references.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, testDatabase } from '../../test/harness/backends.ts';
import { AuditTrail } from '../audit/trail.ts';
import { createLogger } from '../core/logger.ts';
import { CreditService } from '../credits/service.ts';
import { createBlankDocument } from '../design/index.ts';
import { renderInProcess } from '../engine/in-process.ts';
import type { RenderedFile, RenderJob } from '../engine/index.ts';
import { FolderFileStore, folderRoot } from '../files/index.ts';
import { JobInputLoader, RenderMaintenance } from '../renders/index.ts';
import type { Store } from '../store/index.ts';
import { CoalescingQueue } from './queue.ts';
import { ThumbnailService, thumbnailScale, thumbnailSize } from './service.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('coalescing queue', () => {
  it('turns a burst of pushes into one run, and a push during a run into exactly one more', async () => {
    const runs: string[] = [];
    const release = gate();
    const queue = new CoalescingQueue({
      run: async (key) => {
        runs.push(key);
        if (runs.length === 1) await release.opened;
      },
      debounceMs: 30,
      concurrency: 1,
      maxPending: 10,
    });
    for (let i = 0; i < 10; i++) queue.push('a');
    await sleep(60);
    expect(runs).toEqual(['a']);
    for (let i = 0; i < 5; i++) queue.push('a'); // while in flight: one more afterwards
    expect(queue.stats()).toMatchObject({ running: 1, pending: 1 });
    release.open();
    await queue.whenIdle();
    expect(runs).toEqual(['a', 'a']);
    expect(queue.stats()).toMatchObject({ started: 2, coalesced: 13, dropped: 0 });
  });

  it('runs at most `concurrency` at once and drops new keys beyond `maxPending`', async () => {
    let running = 0;
    let peak = 0;
    const dropped: string[] = [];
    const queue = new CoalescingQueue({
      run: async () => {
        running++;
        peak = Math.max(peak, running);
        await sleep(10);
        running--;
      },
      debounceMs: 0,
      concurrency: 2,
      maxPending: 5,
      onDrop: (key) => dropped.push(key),
    });
    const outcomes = Array.from({ length: 8 }, (_, i) => queue.push(`k${i}`));
    expect(outcomes.filter((o) => o === 'dropped')).toHaveLength(1); // 2 started at once, 5 wait
    expect(dropped).toEqual(['k7']);
    await queue.whenIdle();
    expect(peak).toBe(2);
    expect(queue.stats().started).toBe(7);
  });

  it('starts nothing while busy, reports failures, and close waits for the run in flight', async () => {
    let busy = true;
    const errors: unknown[] = [];
    let finished = false;
    const queue = new CoalescingQueue({
      run: async (key) => {
        if (key === 'bad') throw new Error('boom');
        await sleep(50);
        finished = true;
      },
      debounceMs: 0,
      concurrency: 1,
      maxPending: 10,
      busy: () => busy,
      onError: (_key, error) => errors.push(error),
    });
    queue.push('bad');
    await sleep(100);
    expect(queue.stats()).toMatchObject({ started: 0, pending: 1 });
    busy = false;
    await queue.whenIdle();
    expect(errors).toHaveLength(1);
    queue.push('slow');
    await sleep(10);
    queue.push('waiting');
    await queue.close();
    expect(finished).toBe(true);
    expect(queue.stats()).toMatchObject({ running: 0, pending: 0 });
    expect(queue.push('late')).toBe('closed');
  });
});

describe('thumbnail size', () => {
  it('fits the longest side into the box, never enlarges, and stays within the engine minimum', () => {
    expect(thumbnailSize(1080, 1920)).toEqual({ width: 180, height: 320 });
    expect(thumbnailSize(100, 50)).toEqual({ width: 100, height: 50 });
    expect(thumbnailScale(10_000, 10)).toBeCloseTo(0.032);
    expect(thumbnailSize(10_000, 10)).toEqual({ width: 320, height: 1 });
  });
});

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `thumbnail service on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let store: Store;
      let files: FolderFileStore;
      let workspaceId = '';
      const logger = createLogger('silent');

      beforeAll(async () => {
        database = testDatabase(backend.name);
        store = await database.open();
        files = new FolderFileStore(folderRoot(database.dataDir));
        workspaceId = (await store.workspaces.create({ name: 'w', credits: 0, actor: 'test' })).id;
      });
      afterAll(async () => {
        await store.close();
        await database.destroy();
      });

      function service(render: (job: RenderJob) => Promise<RenderedFile[]>) {
        return new ThumbnailService({
          store,
          files,
          inputs: new JobInputLoader(store, files),
          render,
          logger,
          allowPrivateUrls: false,
          debounceMs: 0,
        });
      }

      const template = () =>
        store.templates.create({ workspaceId, name: 't', document: createBlankDocument(640, 480) });
      const keyOf = async (id: string) => (await store.templates.get(id))?.thumbnailKey ?? null;

      it('renders the active page small, records it, and deletes the thumbnail it replaces', async () => {
        const jobs: RenderJob[] = [];
        const thumbnails = service((job) => {
          jobs.push(job);
          return renderInProcess(job);
        });
        const created = await template();
        thumbnails.templateChanged(created);
        await thumbnails.whenIdle();
        const first = await keyOf(created.id);
        expect(first).toMatch(
          new RegExp(`^renders/${workspaceId}/[A-Za-z0-9_-]{24}/thumb_${created.id}\\.webp$`),
        );
        expect(jobs[0]).toMatchObject({
          format: 'webp',
          scale: 0.5,
          pageIds: [created.document.activePageId],
        });
        expect((await files.head(first ?? ''))?.contentType).toBe('image/webp');

        const saved = await store.templates.saveDocument(created.id, {
          document: createBlankDocument(640, 480),
        });
        if (saved.kind !== 'saved') throw new Error('expected a save');
        thumbnails.templateChanged(saved.template);
        await thumbnails.whenIdle();
        const second = await keyOf(created.id);
        expect(second).not.toBe(first);
        expect(await files.head(first ?? '')).toBeNull();
        expect(await files.head(second ?? '')).not.toBeNull();
        expect(thumbnails.stats()).toMatchObject({ rendered: 2, failed: 0 });
        await thumbnails.close();
      });

      it('keeps the previous thumbnail when a render fails', async () => {
        let fail = false;
        const thumbnails = service((job) =>
          fail ? Promise.reject(new Error('pool down')) : renderInProcess(job),
        );
        const created = await template();
        thumbnails.templateChanged(created);
        await thumbnails.whenIdle();
        const kept = await keyOf(created.id);
        fail = true;
        thumbnails.templateChanged(created);
        await thumbnails.whenIdle();
        expect(await keyOf(created.id)).toBe(kept);
        expect(await files.head(kept ?? '')).not.toBeNull();
        expect(thumbnails.stats()).toMatchObject({ rendered: 2, failed: 1 });
        await thumbnails.close();
      });

      it('deletes its own file when a newer revision or a deletion overtook the render', async () => {
        const written: string[] = [];
        const spy = new FolderFileStore(folderRoot(database.dataDir));
        const realPut = spy.put.bind(spy);
        spy.put = (key, bytes, type) => {
          written.push(key);
          return realPut(key, bytes, type);
        };
        const created = await template();
        const release = gate();
        const thumbnails = new ThumbnailService({
          store,
          files: spy,
          inputs: new JobInputLoader(store, files),
          render: async (job) => {
            await release.opened;
            return renderInProcess(job);
          },
          logger,
          allowPrivateUrls: false,
          debounceMs: 0,
        });
        thumbnails.templateChanged(created);
        await sleep(20); // the render has read revision 1 and waits
        await store.templates.saveDocument(created.id, { document: createBlankDocument(640, 480) });
        // A thumbnail of revision 2 from elsewhere (another instance) is already recorded.
        await store.thumbnails.set(created.id, `renders/${workspaceId}/elsewhere0000000000/x.webp`, 2);
        release.open();
        await thumbnails.whenIdle();
        expect(written).toHaveLength(1);
        expect(await files.head(written[0] ?? '')).toBeNull();

        const doomed = await template();
        const held = gate();
        const other = service(async (job) => {
          await held.opened;
          return renderInProcess(job);
        });
        other.templateChanged(doomed);
        await sleep(20);
        await store.templates.delete(doomed.id);
        held.open();
        await other.whenIdle();
        const listed: string[] = [];
        for await (const file of files.list(`renders/${workspaceId}/`))
          if (file.key.includes(doomed.id)) listed.push(file.key);
        expect(listed).toEqual([]);
        await Promise.all([thumbnails.close(), other.close()]);
      });

      it('removed() deletes the file of a deleted template; the sweep keeps referenced thumbnails', async () => {
        const thumbnails = service(renderInProcess);
        const [kept, gone] = [await template(), await template()];
        thumbnails.templateChanged(kept);
        thumbnails.templateChanged(gone);
        await thumbnails.whenIdle();
        const keptKey = (await keyOf(kept.id)) ?? '';
        const goneKey = (await keyOf(gone.id)) ?? '';
        await store.templates.delete(gone.id);
        await thumbnails.removed(gone.id, goneKey);
        expect(await files.head(goneKey)).toBeNull();

        const maintenance = new RenderMaintenance({
          store,
          credits: new CreditService(store, new AuditTrail(store)),
          files,
          instanceId: 'ins_t',
          logger,
          retentionDays: 0,
          singleInstance: true,
          orphanFileMarginMs: 0,
        });
        await maintenance.sweepOrphanFiles(new Date(Date.now() + 60_000));
        expect(await files.head(keptKey)).not.toBeNull();
        await thumbnails.close();
      });
      it('catches up on a save no instance thumbnailed, once per revision, and does not retry a failure', async () => {
        const jobs: RenderJob[] = [];
        let fail = false;
        const thumbnails = service((job) => {
          jobs.push(job);
          return fail ? Promise.reject(new Error('broken image')) : renderInProcess(job);
        });
        // Saved on an instance that stopped before its thumbnail: nothing queued it here.
        const orphan = await template();
        expect(await thumbnails.catchUp({ graceMs: 60_000 })).toBe(0); // too recent: its instance may still
        const later = new Date(Date.now() + 120_000);
        expect(await thumbnails.catchUp({ graceMs: 60_000, now: later })).toBe(1);
        await thumbnails.whenIdle();
        expect(await keyOf(orphan.id)).toMatch(/thumb_.*\.webp$/);
        expect(await thumbnails.catchUp({ graceMs: 0, now: later })).toBe(0); // current now

        // A new revision is due again; a failed attempt is recorded and not retried by the sweep.
        const saved = await store.templates.saveDocument(orphan.id, {
          document: createBlankDocument(320, 240),
        });
        if (saved.kind !== 'saved') throw new Error('expected a save');
        fail = true;
        expect(await thumbnails.catchUp({ graceMs: 0, now: later })).toBe(1);
        await thumbnails.whenIdle();
        expect(await thumbnails.catchUp({ graceMs: 0, now: later })).toBe(0);
        expect(jobs).toHaveLength(2);
        expect(thumbnails.stats()).toMatchObject({ rendered: 2, failed: 1 });
        await thumbnails.close();
      });
    },
  );
}
