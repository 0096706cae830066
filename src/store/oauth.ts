/**
 * The OAuth 2.0 authorization server's records: registered clients (RFC 7591), pending
 * authorization requests, authorization codes and tokens. Codes and tokens are kept as SHA-256
 * only. The two state changes that must happen once (a code redeemed, a refresh token rotated) are
 * one conditional UPDATE each, in the transaction that inserts the new tokens, so exactly one caller
 * wins on either database and a concurrent replay always sees the tokens it must revoke.
 * Plain data in and out: the rules live in src/oauth.
 */
import type { Kysely } from 'kysely';
import type { Database, OAuthCodesTable, OAuthRequestsTable, OAuthTokensTable } from './schema.ts';

export interface ClientRecord {
  id: string;
  secretHash: string | null;
  authMethod: string;
  /** The registered metadata as echoed to the client (RFC 7591 §3.2.1). */
  metadata: Record<string, unknown>;
  createdAt: string;
}

export type PendingRequest = OAuthRequestsTable;
export type CodeRecord = OAuthCodesTable;
export type TokenRecord = OAuthTokensTable;

export class OAuthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async createClient(client: ClientRecord & { registeredFrom: string }): Promise<void> {
    await this.db
      .insertInto('oauth_clients')
      .values({
        id: client.id,
        secret_hash: client.secretHash,
        auth_method: client.authMethod,
        metadata: JSON.stringify(client.metadata),
        registered_from: client.registeredFrom,
        created_at: client.createdAt,
      })
      .execute();
  }

  async client(id: string): Promise<ClientRecord | null> {
    const row = await this.db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      secretHash: row.secret_hash,
      authMethod: row.auth_method,
      metadata: JSON.parse(row.metadata) as Record<string, unknown>,
      createdAt: row.created_at,
    };
  }

  async registrationsSince(address: string, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('oauth_clients')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('registered_from', '=', address)
      .where('created_at', '>', since)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async createRequest(request: PendingRequest): Promise<void> {
    await this.db.insertInto('oauth_requests').values(request).execute();
  }

  async request(id: string, now: string): Promise<PendingRequest | null> {
    const row = await this.db
      .selectFrom('oauth_requests')
      .selectAll()
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Removes a pending request; true for the one caller that removed it. */
  async takeRequest(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('oauth_requests').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async createCode(code: CodeRecord): Promise<void> {
    await this.db.insertInto('oauth_codes').values(code).execute();
  }

  async code(codeHash: string): Promise<CodeRecord | null> {
    const row = await this.db
      .selectFrom('oauth_codes')
      .selectAll()
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    return row ?? null;
  }

  /**
   * Marks the code used and inserts `tokens`, in one transaction; false (nothing inserted) when the
   * code was used already. With no tokens it only burns the code.
   */
  async redeemCode(codeHash: string, now: string, tokens: readonly TokenRecord[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('oauth_codes')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return false;
      for (const token of tokens) await trx.insertInto('oauth_tokens').values(token).execute();
      return true;
    });
  }

  async token(tokenHash: string): Promise<TokenRecord | null> {
    const row = await this.db
      .selectFrom('oauth_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ?? null;
  }

  /**
   * Marks a live refresh token rotated and inserts its successors, in one transaction; false (nothing
   * inserted) when it was rotated or revoked already.
   */
  async rotateRefresh(tokenHash: string, now: string, tokens: readonly TokenRecord[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const rotated = await trx
        .updateTable('oauth_tokens')
        .set({ rotated_at: now })
        .where('token_hash', '=', tokenHash)
        .where('kind', '=', 'refresh')
        .where('rotated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(rotated.numUpdatedRows) !== 1) return false;
      for (const token of tokens) await trx.insertInto('oauth_tokens').values(token).execute();
      return true;
    });
  }

  async revokeFamily(familyId: string, now: string): Promise<void> {
    await this.db
      .updateTable('oauth_tokens')
      .set({ revoked_at: now })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeToken(tokenHash: string, now: string): Promise<void> {
    await this.db
      .updateTable('oauth_tokens')
      .set({ revoked_at: now })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * A live access token whose user still exists and still belongs to the token's workspace (one
   * query: what every request to the resource server asks).
   */
  async liveAccessToken(tokenHash: string, now: string): Promise<TokenRecord | null> {
    const row = await this.db
      .selectFrom('oauth_tokens')
      .innerJoin('users', 'users.id', 'oauth_tokens.user_id')
      .innerJoin('user_workspaces', (join) =>
        join
          .onRef('user_workspaces.user_id', '=', 'oauth_tokens.user_id')
          .onRef('user_workspaces.workspace_id', '=', 'oauth_tokens.workspace_id'),
      )
      .selectAll('oauth_tokens')
      .where('oauth_tokens.token_hash', '=', tokenHash)
      .where('oauth_tokens.kind', '=', 'access')
      .where('oauth_tokens.revoked_at', 'is', null)
      .where('oauth_tokens.expires_at', '>', now)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    return row ?? null;
  }

  /**
   * Drops expired requests and tokens, and codes expired before `codesBefore` (kept a while after
   * expiry so a late replay still finds, and revokes, what the code issued).
   */
  async sweep(now: string, codesBefore: string): Promise<void> {
    await this.db.deleteFrom('oauth_requests').where('expires_at', '<=', now).execute();
    await this.db.deleteFrom('oauth_codes').where('expires_at', '<=', codesBefore).execute();
    await this.db.deleteFrom('oauth_tokens').where('expires_at', '<=', now).execute();
  }
}
