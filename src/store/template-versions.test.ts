/** Template versions in the store, on SQLite and PostgreSQL alike (docs/versions.md). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simpleDocument } from '../../test/fixtures/samples.ts';
import { backends, type TestDatabase, testDatabase } from '../../test/harness/backends.ts';
import type { Store } from './index.ts';

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `template versions on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let store: Store;
      let templateId: string;
      const by = { publishedBy: 'api_key:key_test' };

      beforeEach(async () => {
        database = testDatabase(backend.name);
        store = await database.open();
        const workspace = await store.workspaces.create({ name: 'w', credits: 0, actor: 'test' });
        const template = await store.templates.create({
          workspaceId: workspace.id,
          name: 't',
          document: simpleDocument() as never,
        });
        templateId = template.id;
      });
      afterEach(async () => {
        await store.close();
        await database.destroy();
      });

      const xOf = (document: unknown) =>
        (document as { pages: Array<{ elements: Array<{ x: number }> }> } | undefined)?.pages[0]?.elements[0]
          ?.x;
      const saveChanged = async (x: number) => {
        const document = simpleDocument();
        (document.pages[0]?.elements[0] as { x: number }).x = x;
        const saved = await store.templates.saveDocument(templateId, { document: document as never });
        if (saved.kind !== 'saved') throw new Error('not saved');
        return saved.template;
      };

      it('numbers versions per template, freezes the draft, and answers an unchanged draft with its version', async () => {
        const first = await store.templateVersions.publish(templateId, { note: 'launch', ...by });
        expect(first.kind).toBe('published');
        if (first.kind === 'missing') throw new Error('missing');
        expect(first.version).toMatchObject({ number: 1, note: 'launch', draftRevision: 1, ...by });
        const again = await store.templateVersions.publish(templateId, { note: null, ...by });
        expect(again).toMatchObject({ kind: 'unchanged', version: { number: 1, note: 'launch' } });

        const draft = await saveChanged(42);
        const second = await store.templateVersions.publish(templateId, { note: null, ...by });
        expect(second).toMatchObject({
          kind: 'published',
          version: { number: 2, draftRevision: draft.revision },
        });
        // Later saves do not touch a published version.
        await saveChanged(7);
        const one = await store.templateVersions.get(templateId, 1);
        const two = await store.templateVersions.get(templateId, 2);
        expect(xOf(one?.document)).toBe(xOf(simpleDocument()));
        expect(xOf(two?.document)).toBe(42);
        expect(two?.documentHash).toBe(draft.documentHash);
        expect(await store.templateVersions.latestNumber(templateId)).toBe(2);
        expect(await store.templateVersions.renderFacts(templateId, 2)).toMatchObject({
          number: 2,
          documentHash: draft.documentHash,
          activePageId: draft.document.activePageId,
        });
        expect(await store.templateVersions.get(templateId, 3)).toBeNull();
        expect(await store.templateVersions.renderFacts(templateId, 3)).toBeNull();
      });

      it('makes one version of one draft however many publish it at once', async () => {
        await store.templateVersions.publish(templateId, { note: null, ...by });
        await saveChanged(1);
        const outcomes = await Promise.all(
          Array.from({ length: 6 }, () => store.templateVersions.publish(templateId, { note: null, ...by })),
        );
        // One draft: exactly one new version, the others answer it.
        const numbers = outcomes.map((o) => (o.kind === 'missing' ? 0 : o.version.number));
        expect(new Set(numbers)).toEqual(new Set([2]));
        expect(outcomes.filter((o) => o.kind === 'published')).toHaveLength(1);
      });

      it('lists newest first in pages, and deletes the versions with their template', async () => {
        for (let x = 0; x < 5; x++) {
          await saveChanged(100 + x);
          await store.templateVersions.publish(templateId, { note: `v${x}`, ...by });
        }
        const first = await store.templateVersions.list(templateId, { limit: 2 });
        expect(first.items.map((v) => v.number)).toEqual([5, 4]);
        const second = await store.templateVersions.list(templateId, {
          limit: 2,
          cursor: first.nextCursor ?? undefined,
        });
        expect(second.items.map((v) => v.number)).toEqual([3, 2]);
        const last = await store.templateVersions.list(templateId, {
          limit: 2,
          cursor: second.nextCursor ?? undefined,
        });
        expect(last).toMatchObject({ items: [{ number: 1 }], nextCursor: null });

        await store.templates.delete(templateId);
        expect(await store.templateVersions.latestNumber(templateId)).toBeNull();
        expect((await store.templateVersions.list(templateId, { limit: 10 })).items).toEqual([]);
        expect(await store.templateVersions.publish(templateId, { note: null, ...by })).toEqual({
          kind: 'missing',
        });
      });
    },
  );
}
