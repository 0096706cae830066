/**
 * Indexes on the file keys that render outputs and assets record, so the orphan-file sweep can ask
 * "which of these stored files does anything reference?" without scanning either table.
 */
import type { Kysely } from 'kysely';

export const fileKeyIndexesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.createIndex('render_outputs_file_key').on('render_outputs').column('file_key').execute();
    await db.schema.createIndex('assets_file_key').on('assets').column('file_key').execute();
  },
};
