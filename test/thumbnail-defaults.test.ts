/**
 * A template's thumbnail shows its variables at their defaults, as the studio and a render with no
 * modifications do (the one rule: applyModifications with `{}`), not the raw `{{headline}}`: the job
 * handed to the renderer holds the default, and its pixels differ from the raw text's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/core/logger.ts';
import { type DesignDocument, parseDesignDocument } from '../src/design/index.ts';
import { renderInProcess } from '../src/engine/in-process.ts';
import type { RenderedFile, RenderJob } from '../src/engine/index.ts';
import { FolderFileStore, folderRoot } from '../src/files/index.ts';
import { JobInputLoader } from '../src/renders/index.ts';
import type { Store } from '../src/store/index.ts';
import { ThumbnailService } from '../src/thumbnails/service.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { backends, type TestDatabase, testDatabase } from './harness/backends.ts';

function documentWith(text: string, variables: Record<string, string>): DesignDocument {
  const parsed = parseDesignDocument({ ...simpleDocument(text), variables });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.document;
}

const textOf = (job: RenderJob | undefined) =>
  job?.document.pages[0]?.elements.find((element) => element.type === 'text') as
    | { text?: string }
    | undefined;

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `thumbnails with variable defaults on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let database: TestDatabase;
      let store: Store;
      let files: FolderFileStore;
      let workspaceId = '';

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

      async function thumbnailJob(document: DesignDocument): Promise<RenderJob> {
        const jobs: RenderJob[] = [];
        const thumbnails = new ThumbnailService({
          store,
          files,
          inputs: new JobInputLoader(store, files),
          render: (job: RenderJob): Promise<RenderedFile[]> => {
            jobs.push(job);
            return renderInProcess(job);
          },
          logger: createLogger('silent'),
          allowPrivateUrls: false,
          debounceMs: 0,
        });
        const template = await store.templates.create({ workspaceId, name: 't', document });
        thumbnails.templateChanged(template);
        await thumbnails.whenIdle();
        await thumbnails.close();
        expect((await store.templates.get(template.id))?.thumbnailKey).toBeTruthy();
        const [job] = jobs;
        if (!job) throw new Error('no thumbnail rendered');
        return job;
      }

      it('renders the text with the default value, and its pixels differ from the raw placeholder', async () => {
        const document = documentWith('{{headline}}', { headline: 'Summer Sale' });
        const job = await thumbnailJob(document);
        expect(textOf(job)?.text).toBe('Summer Sale');
        expect(job.document.variables).toEqual({ headline: 'Summer Sale' });

        // The same job with the document as stored: what the thumbnail showed before.
        const png = async (doc: DesignDocument) => {
          const [file] = await renderInProcess({ ...job, document: doc, format: 'png', scale: 1 });
          if (!file) throw new Error('no file');
          return Buffer.from(file.bytes);
        };
        const withDefault = await png(job.document);
        const raw = await png(document);
        expect(withDefault.equals(raw)).toBe(false);
      });

      it('keeps a placeholder without a default, and a document whose default its property refuses, as written', async () => {
        const noDefault = await thumbnailJob(documentWith('Hi {{name}}', {}));
        expect(textOf(noDefault)?.text).toBe('Hi {{name}}');
        // Defaults that take the text over its limit: a render with no modifications refuses them.
        const refused = documentWith('{{v}}{{v}}', { v: 'x'.repeat(6_000) });
        const job = await thumbnailJob(refused);
        expect(textOf(job)?.text).toBe('{{v}}{{v}}');
      });
    },
  );
}
