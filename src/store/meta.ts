/** Small facts about the deployment itself, such as whether the first-start bootstrap ran. */
import { randomBytes } from 'node:crypto';
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

  /**
   * A deployment-wide random key (32 bytes, base64url), created once by whichever instance asks
   * first, so every instance signs and verifies with the same one.
   */
  async secret(name: string): Promise<string> {
    await this.claim(name, randomBytes(32).toString('base64url'));
    const stored = await this.get(name);
    if (!stored) throw new Error(`deployment key ${name} missing`);
    return stored;
  }
}
