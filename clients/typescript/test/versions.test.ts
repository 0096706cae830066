/** Template versions through the SDK against a real server: publish, list, read, pin, roll back, diff. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from '../../../test/fixtures/samples.ts';
import { startTestServer, type TestServer } from '../../../test/harness/server.ts';
import { PlatenError } from '../src/index.ts';
import { caught, sdkWorkspace } from './setup.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(() => server.close());

describe('platen.templates versions', () => {
  it('publishes, lists, reads, renders pinned, rolls back and diffs', async () => {
    const { platen, templateId } = await sdkWorkspace(server, 10);
    const first = await platen.templates.publish(templateId, { note: 'launch' });
    expect(first).toMatchObject({ number: 1, note: 'launch' });
    expect((await platen.templates.publish(templateId)).number).toBe(1);
    const saved = await platen.templates.save(templateId, { document: simpleDocument('Changed {{name}}') });
    expect((await platen.templates.versions(templateId)).items.map((v) => v.number)).toEqual([1]);
    expect((await platen.templates.version(templateId, 'latest')).document).toEqual(first.document);

    const pinned = await platen.render(templateId, { format: 'png', version: 1 });
    expect('version' in pinned && pinned.version).toBe(1);
    const missing = await caught(platen.render(templateId, { format: 'png', version: 4 }));
    expect(missing).toBeInstanceOf(PlatenError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });

    const diff = await platen.templates.diff(templateId, { from: 1, to: 'draft' });
    expect(diff.changes).toEqual([
      { op: 'set', path: 'pages[p1].elements[t1].text', from: 'Hello {{name}}', to: 'Changed {{name}}' },
    ]);
    const picture = await platen.templates.diffImage(templateId, { from: 1 });
    expect((await sharp(picture).metadata()).format).toBe('png');

    const stale = await caught(platen.templates.rollback(templateId, 1, { ifMatch: saved.revision - 1 }));
    expect(stale).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    const rolled = await platen.templates.rollback(templateId, 1, { ifMatch: saved.revision });
    expect([rolled.revision, rolled.document]).toEqual([saved.revision + 1, first.document]);
  });
});
