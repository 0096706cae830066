/**
 * Template thumbnails' records: which file a template's thumbnail is, and which draft revision it
 * last answered for, so that any instance can catch up on thumbnails another one never rendered
 * (it stopped between the save and the render). The files themselves belong to the files store.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/** A template whose latest draft has no thumbnail attempt yet. */
export interface ThumbnailDue {
  id: string;
  revision: number;
}

export class ThumbnailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Points the template at a new thumbnail file, unless a newer one was set meanwhile (`revision`
   * is the draft revision the thumbnail shows). Returns the key it replaced, for deletion, or null
   * when nothing changed.
   */
  async set(id: string, key: string, revision: number): Promise<{ replaced: string | null } | null> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('templates')
        .select(['thumbnail_key', 'revision', 'thumbnail_revision'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || Number(row.revision) > revision) return null;
      if (row.thumbnail_revision !== null && Number(row.thumbnail_revision) > revision) return null;
      await trx
        .updateTable('templates')
        .set({ thumbnail_key: key, thumbnail_revision: revision })
        .where('id', '=', id)
        .execute();
      return { replaced: row.thumbnail_key };
    });
  }

  /** Records that `revision` was attempted without a new file (it failed, or has no page to show): the previous file stays, and the sweep does not retry it. */
  async markAttempted(id: string, revision: number): Promise<void> {
    await this.db
      .updateTable('templates')
      .set({ thumbnail_revision: revision })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('thumbnail_revision', 'is', null), eb('thumbnail_revision', '<', revision)]))
      .execute();
  }

  /**
   * Templates saved before `savedBefore` whose latest revision has no thumbnail attempt, oldest
   * first. The predicate repeats the partial index's (migration 007), so the lookup uses it.
   */
  async due(savedBefore: Date, limit: number): Promise<ThumbnailDue[]> {
    const rows = await this.db
      .selectFrom('templates')
      .select(['id', 'revision'])
      .where(sql<boolean>`(thumbnail_revision IS NULL OR thumbnail_revision < revision)`)
      .where('updated_at', '<', savedBefore.toISOString())
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, revision: Number(row.revision) }));
  }
}
