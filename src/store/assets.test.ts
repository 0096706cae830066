/**
 * Media facts of video and audio assets (014_media_assets) on SQLite and, when configured,
 * PostgreSQL: stored and read back exactly, null for images and fonts, and the kind filter.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, testDatabase } from '../../test/harness/backends.ts';
import type { Store } from './index.ts';

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `assets store on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
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

      it('keeps what the probe found for video and audio, and nothing of it for images', async () => {
        const ws = await store.workspaces.create({ name: 'media', credits: 0, actor: 'test' });
        const base = { workspaceId: ws.id, byteSize: 10, fontFamily: null };
        const at = (second: number) => `2026-01-01T00:00:0${second}.000Z`;
        await store.assets.create({
          ...base,
          id: 'ast_video000000000000000',
          kind: 'video',
          mimeType: 'video/mp4',
          width: 1920,
          height: 1080,
          durationMs: 12_345,
          hasVideo: true,
          hasAudio: false,
          fileKey: 'assets/w/t/v.mp4',
          createdAt: at(1),
        });
        await store.assets.create({
          ...base,
          id: 'ast_audio000000000000000',
          kind: 'audio',
          mimeType: 'audio/mpeg',
          width: null,
          height: null,
          durationMs: 600_000,
          hasVideo: false,
          hasAudio: true,
          fileKey: 'assets/w/t/a.mp3',
          createdAt: at(2),
        });
        await store.assets.create({
          ...base,
          id: 'ast_image000000000000000',
          kind: 'image',
          mimeType: 'image/png',
          width: 1,
          height: 1,
          fileKey: 'assets/w/t/i.png',
          createdAt: at(3),
        });
        const [video, audio, image] = await Promise.all(
          ['ast_video000000000000000', 'ast_audio000000000000000', 'ast_image000000000000000'].map((id) =>
            store.assets.get(id),
          ),
        );
        expect(video).toMatchObject({
          kind: 'video',
          width: 1920,
          height: 1080,
          durationMs: 12_345,
          hasVideo: true,
          hasAudio: false,
        });
        expect(audio).toMatchObject({
          kind: 'audio',
          width: null,
          durationMs: 600_000,
          hasVideo: false,
          hasAudio: true,
        });
        expect(image).toMatchObject({ kind: 'image', durationMs: null, hasVideo: null, hasAudio: null });

        const kinds = async (kind?: 'image' | 'video' | 'audio' | 'font') =>
          (await store.assets.list(ws.id, { limit: 10 }, undefined, kind)).items.map((a) => a.id);
        expect(await kinds()).toEqual([
          'ast_image000000000000000',
          'ast_audio000000000000000',
          'ast_video000000000000000',
        ]);
        expect(await kinds('video')).toEqual(['ast_video000000000000000']);
        expect(await kinds('audio')).toEqual(['ast_audio000000000000000']);
        expect(await kinds('font')).toEqual([]);
      });
    },
  );
}
