/**
 * API keys: only a SHA-256 hash and an 8-character display prefix are stored. The clear key exists
 * once, in the response that creates it. Keys are looked up by hash, then compared in constant time.
 */
import type { Kysely } from 'kysely';
import { constantTimeEqual, newApiKey, newId, sha256Hex } from '../core/ids.ts';
import { prepareQuery } from './prepared.ts';
import type { ApiKeysTable, Database } from './schema.ts';

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  prefix: string;
  /** As stored; the auth module decides which of them are scopes it knows. */
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** How stale `last_used_at` may get: a key used constantly costs one write a minute, not one a request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface CreatedApiKey extends ApiKeyRecord {
  key: string;
}

/** What is shown of a key after creation: its first 8 characters, masked. */
function maskedPrefix(prefix: string): string {
  return `${prefix}…`;
}

function toRecord(row: ApiKeysTable): ApiKeyRecord {
  const scopes = JSON.parse(row.scopes) as string[];
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    prefix: maskedPrefix(row.prefix),
    scopes,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

export class ApiKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: {
    workspaceId: string;
    name: string;
    scopes: readonly string[];
  }): Promise<CreatedApiKey> {
    const key = newApiKey();
    const row: ApiKeysTable = {
      id: newId('apiKey'),
      workspace_id: input.workspaceId,
      name: input.name,
      key_hash: sha256Hex(key),
      prefix: key.slice(0, 8),
      scopes: JSON.stringify([...new Set(input.scopes)]),
      created_at: new Date().toISOString(),
      revoked_at: null,
      last_used_at: null,
    };
    await this.db.insertInto('api_keys').values(row).execute();
    return { ...toRecord(row), key };
  }

  /** The active key matching `key`, or null (unknown or revoked). */
  async findActive(key: string): Promise<ApiKeyRecord | null> {
    const hash = sha256Hex(key);
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', hash)
      .executeTakeFirst();
    if (!row || !constantTimeEqual(row.key_hash, hash) || row.revoked_at) return null;
    return toRecord(row);
  }

  /** The active key with its workspace's state, in one query (the hot path of every request). */
  // The lookup of every authenticated request: built once (see prepared.ts).
  private readonly byHash = prepareQuery(
    () => this.db,
    ['hash'],
    (param) =>
      this.db
        .selectFrom('api_keys')
        .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
        .selectAll('api_keys')
        .select('workspaces.suspended as workspace_suspended')
        .where('api_keys.key_hash', '=', param('hash')),
  );

  async findActiveWithWorkspace(key: string): Promise<{ key: ApiKeyRecord; suspended: boolean } | null> {
    const hash = sha256Hex(key);
    const [row] = await this.byHash({ hash });
    if (!row || !constantTimeEqual(row.key_hash, hash) || row.revoked_at) return null;
    const { workspace_suspended, ...keyRow } = row;
    return { key: toRecord(keyRow), suspended: Boolean(workspace_suspended) };
  }

  /** Records a use now, unless one was recorded within the resolution (one conditional write). */
  async touch(id: string, now = new Date()): Promise<void> {
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
      .execute();
  }

  async list(workspaceId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  /**
   * Revokes a key: only one of `workspaceId`, or of any workspace when null (an operator). Answers
   * the key's workspace, or null when none matched.
   */
  async revoke(id: string, workspaceId: string | null): Promise<string | null> {
    let update = this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id);
    if (workspaceId !== null) update = update.where('workspace_id', '=', workspaceId);
    const row = await update.returning('workspace_id').executeTakeFirst();
    return row?.workspace_id ?? null;
  }
}
