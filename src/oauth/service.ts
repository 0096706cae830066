/**
 * The authorization server's state changes in one service (`services.oauth`): clients, pending
 * authorization requests (RFC 6749 §4.1.1, kept in the database for sign-in and consent), codes
 * (single use, 60 s, bound to client, redirect URI, PKCE challenge, resource, scope, user and
 * workspace), the token grants, revocation (RFC 7009 §2.1: a refresh token takes its family with
 * it) and access-token verification for the resource server (RFC 6750 §3, RFC 8707 audience).
 */
import type { Scope } from '../auth/index.ts';
import { sha256Hex } from '../core/ids.ts';
import type { Store } from '../store/index.ts';
import type { ClientRecord, PendingRequest } from '../store/oauth.ts';
import { ClientService } from './clients.ts';
import { Grants } from './grants.ts';
import { type OAuthSettings, parseScope } from './settings.ts';
import { newAuthorizationCode, newFamilyId, newRequestId } from './token-format.ts';

/** What the resource server (/v1/mcp) learns from a valid access token. */
export interface VerifiedAccessToken {
  workspaceId: string;
  userId: string;
  clientId: string;
  scopes: Scope[];
  /** Epoch seconds. */
  expiresAt: number;
  /** The audience: always `{base_url}/v1/mcp`. */
  resource: string;
}

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  resource: string;
  scopes: Scope[];
}

export interface PendingAuthorization extends AuthorizationRequest {
  id: string;
}

export class OAuthService {
  readonly clients: ClientService;
  readonly grants: Grants;

  constructor(
    private readonly store: Store,
    readonly settings: OAuthSettings,
  ) {
    this.clients = new ClientService(store, settings);
    this.grants = new Grants(store, settings);
  }

  /**
   * The token's grant, or null when it is unknown, expired, revoked, not an access token, meant
   * for another audience, or its person no longer exists or belongs to its workspace. Workspace
   * suspension is the caller's check.
   */
  async verifyAccessToken(token: string): Promise<VerifiedAccessToken | null> {
    if (!token || token.length > 200) return null;
    const row = await this.store.oauth.liveAccessToken(sha256Hex(token), new Date().toISOString());
    if (!row || row.resource !== this.settings.resource) return null;
    return {
      workspaceId: row.workspace_id,
      userId: row.user_id,
      clientId: row.client_id,
      scopes: parseScope(row.scopes) ?? [],
      expiresAt: Math.floor(Date.parse(row.expires_at) / 1000),
      resource: row.resource,
    };
  }

  /** Stores a validated authorization request until the person decides; its id. */
  async startRequest(request: AuthorizationRequest): Promise<string> {
    const id = newRequestId();
    const now = Date.now();
    await this.store.oauth.createRequest({
      id,
      client_id: request.clientId,
      redirect_uri: request.redirectUri,
      state: request.state,
      code_challenge: request.codeChallenge,
      resource: request.resource,
      scopes: request.scopes.join(' '),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.settings.requestTtlSeconds * 1000).toISOString(),
    });
    return id;
  }

  async pendingRequest(id: string): Promise<{ request: PendingAuthorization; client: ClientRecord } | null> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(id)) return null;
    const row = await this.store.oauth.request(id, new Date().toISOString());
    const client = row ? await this.store.oauth.client(row.client_id) : null;
    return row && client ? { request: toPending(row), client } : null;
  }

  /** Ends a pending request; true for the one caller that ended it (a decision is made once). */
  takeRequest(id: string): Promise<boolean> {
    return this.store.oauth.takeRequest(id);
  }

  /** A single-use code for an approved request. */
  async issueCode(request: PendingAuthorization, userId: string, workspaceId: string): Promise<string> {
    const code = newAuthorizationCode();
    const now = Date.now();
    await this.store.oauth.createCode({
      code_hash: sha256Hex(code),
      family_id: newFamilyId(),
      client_id: request.clientId,
      user_id: userId,
      workspace_id: workspaceId,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      resource: request.resource,
      scopes: request.scopes.join(' '),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.settings.codeTtlSeconds * 1000).toISOString(),
      used_at: null,
    });
    return code;
  }

  /** Drops expired rows (requests, tokens; codes a day after expiry). For an occasional upkeep job. */
  async sweep(): Promise<void> {
    const now = Date.now();
    await this.store.oauth.sweep(new Date(now).toISOString(), new Date(now - 86_400_000).toISOString());
  }

  /** RFC 7009 §2.1: a token of this client stops working (a refresh token with its family). */
  async revoke(client: ClientRecord, token: string): Promise<void> {
    const tokenHash = sha256Hex(token);
    const record = await this.store.oauth.token(tokenHash);
    if (!record || record.client_id !== client.id) return;
    const now = new Date().toISOString();
    if (record.kind === 'refresh') await this.store.oauth.revokeFamily(record.family_id, now);
    else await this.store.oauth.revokeToken(tokenHash, now);
  }
}

function toPending(row: PendingRequest): PendingAuthorization {
  return {
    id: row.id,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    state: row.state,
    codeChallenge: row.code_challenge,
    resource: row.resource,
    scopes: parseScope(row.scopes) ?? [],
  };
}
