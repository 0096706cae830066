/** Small facts about the deployment itself, such as whether the first-start bootstrap ran. */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export class MetaRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(key: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('platen_meta')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value ?? null;
  }

  /** Sets `key` only when absent; true when this call set it (a claim that only one process wins). */
  async claim(key: string, value: string): Promise<boolean> {
    const result = await this.db
      .insertInto('platen_meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
