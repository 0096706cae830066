/**
 * Video and audio assets (motion): what the upload's probe found, kept beside the file so a
 * render knows a clip's length, picture size and streams without reading it. Null for images and
 * fonts (an image keeps its size in `width`/`height` as before; a video's picture size goes there
 * too). `has_video`/`has_audio` are 0 or 1, as other flags are. The picker's "videos only" list
 * filters by kind within a workspace, newest first: an index serves it.
 */
import type { Kysely } from 'kysely';

export const mediaAssetsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('assets').addColumn('duration_ms', 'integer').execute();
    await db.schema.alterTable('assets').addColumn('has_video', 'integer').execute();
    await db.schema.alterTable('assets').addColumn('has_audio', 'integer').execute();
    await db.schema
      .createIndex('assets_workspace_kind')
      .on('assets')
      .columns(['workspace_id', 'kind', 'created_at'])
      .execute();
  },
};
