/**
 * The token endpoint's grants. `authorization_code` (RFC 6749 §4.1.3, §4.1.4; PKCE RFC 7636 §4.6;
 * resource RFC 8707 §2.2): a code is redeemed once, in the transaction that stores its tokens; a
 * second use answers invalid_grant and revokes every token the code issued (§4.1.2, §10.5).
 * `refresh_token` (§6; OAuth 2.1 §4.3.1 rotation): each use rotates; a rotated token used again
 * revokes its whole family. The new refresh token keeps the grant's scope (§6); a narrower `scope`
 * narrows the access token only, a wider one is invalid_scope. Access tokens are opaque, random,
 * kept as SHA-256, short-lived and bound to the one resource (audience). A suspended workspace or a
 * person no longer in it gets nothing (invalid_grant).
 */
import { sha256Hex } from '../core/ids.ts';
import type { Store } from '../store/index.ts';
import type { ClientRecord, TokenRecord } from '../store/oauth.ts';
import { clientMetadata } from './clients.ts';
import { failure, type OAuthFailure } from './errors.ts';
import { verifierMatches } from './pkce.ts';
import { formatScope, type OAuthSettings, parseScope } from './settings.ts';
import { newAccessToken, newRefreshToken } from './token-format.ts';

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

export type GrantOutcome = { ok: true; tokens: TokenAnswer } | { ok: false; problem: OAuthFailure };

type Params = Record<string, unknown>;
const str = (params: Params, name: string): string | undefined =>
  typeof params[name] === 'string' ? (params[name] as string) : undefined;

interface Grant {
  familyId: string;
  clientId: string;
  userId: string;
  workspaceId: string;
  resource: string;
  /** The grant's scope (refresh tokens keep it); `accessScopes` may be narrower. */
  scopes: string;
  accessScopes: string;
}

export class Grants {
  constructor(
    private readonly store: Store,
    private readonly settings: OAuthSettings,
  ) {}

  async authorizationCode(client: ClientRecord, params: Params): Promise<GrantOutcome> {
    const code = str(params, 'code');
    const redirectUri = str(params, 'redirect_uri');
    const verifier = str(params, 'code_verifier');
    if (!code || !redirectUri || !verifier)
      return refuse('invalid_request', 'code, redirect_uri and code_verifier are required.');
    if (params.resource !== undefined && typeof params.resource !== 'string')
      return refuse('invalid_target', 'Name one resource.');
    const codeHash = sha256Hex(code);
    const now = new Date().toISOString();
    const record = await this.store.oauth.code(codeHash);
    if (!record) return refuse('invalid_grant', 'The authorization code is not valid.');
    if (record.used_at) {
      await this.store.oauth.revokeFamily(record.family_id, now);
      return refuse('invalid_grant', 'The authorization code was used already; its tokens are revoked.');
    }
    const problem =
      record.client_id !== client.id || record.expires_at <= now
        ? failure('invalid_grant', 'The authorization code is not valid.')
        : record.redirect_uri !== redirectUri
          ? failure('invalid_grant', 'redirect_uri differs from the authorization request.')
          : !verifierMatches(verifier, record.code_challenge)
            ? failure('invalid_grant', 'The code_verifier does not match the code_challenge.')
            : params.resource !== undefined && params.resource !== record.resource
              ? failure('invalid_target', 'The resource differs from the authorization request.')
              : await this.grantProblem(record.user_id, record.workspace_id);
    if (problem) {
      await this.store.oauth.redeemCode(codeHash, now, []); // a code meets one attempt only
      return { ok: false, problem };
    }
    // The family id is the code's: a replay of the code finds the tokens it issued.
    const grant: Grant = {
      familyId: record.family_id,
      clientId: client.id,
      userId: record.user_id,
      workspaceId: record.workspace_id,
      resource: record.resource,
      scopes: record.scopes,
      accessScopes: record.scopes,
    };
    const { rows, tokens } = this.mint(
      grant,
      clientMetadata(client).grant_types.includes('refresh_token'),
      now,
    );
    if (!(await this.store.oauth.redeemCode(codeHash, now, rows))) {
      await this.store.oauth.revokeFamily(record.family_id, now);
      return refuse('invalid_grant', 'The authorization code was used already; its tokens are revoked.');
    }
    return { ok: true, tokens };
  }

  async refreshToken(client: ClientRecord, params: Params): Promise<GrantOutcome> {
    if (!clientMetadata(client).grant_types.includes('refresh_token'))
      return refuse('unauthorized_client', 'This client did not register the refresh_token grant.');
    const token = str(params, 'refresh_token');
    if (!token) return refuse('invalid_request', 'refresh_token is required.');
    if (params.resource !== undefined && typeof params.resource !== 'string')
      return refuse('invalid_target', 'Name one resource.');
    if (params.scope !== undefined && typeof params.scope !== 'string')
      return refuse('invalid_request', 'Send scope once.');
    const tokenHash = sha256Hex(token);
    const now = new Date().toISOString();
    const record = await this.store.oauth.token(tokenHash);
    if (record?.kind !== 'refresh' || record.client_id !== client.id || record.revoked_at)
      return refuse('invalid_grant', 'The refresh token is not valid.');
    if (record.rotated_at) {
      await this.store.oauth.revokeFamily(record.family_id, now);
      return refuse('invalid_grant', 'The refresh token was used already; the grant is revoked.');
    }
    if (record.expires_at <= now) return refuse('invalid_grant', 'The refresh token has expired.');
    if (params.resource !== undefined && params.resource !== record.resource)
      return refuse('invalid_target', 'The resource differs from the grant.');
    const granted = record.scopes.split(' ');
    let accessScopes = record.scopes;
    if (typeof params.scope === 'string') {
      const asked = parseScope(params.scope);
      if (!asked?.length || !asked.every((s) => granted.includes(s)))
        return refuse('invalid_scope', 'The scope asked for exceeds the grant.');
      accessScopes = formatScope(asked);
    }
    const problem = await this.grantProblem(record.user_id, record.workspace_id);
    if (problem) return { ok: false, problem };
    const grant: Grant = {
      familyId: record.family_id,
      clientId: client.id,
      userId: record.user_id,
      workspaceId: record.workspace_id,
      resource: record.resource,
      scopes: record.scopes,
      accessScopes,
    };
    const { rows, tokens } = this.mint(grant, true, now);
    if (!(await this.store.oauth.rotateRefresh(tokenHash, now, rows))) {
      await this.store.oauth.revokeFamily(record.family_id, now);
      return refuse('invalid_grant', 'The refresh token was used already; the grant is revoked.');
    }
    return { ok: true, tokens };
  }

  /** Why this person may not get tokens for this workspace now, or null. */
  private async grantProblem(userId: string, workspaceId: string): Promise<OAuthFailure | null> {
    const user = await this.store.users.get(userId);
    // A disabled person gets nothing, not even for a code issued before they were disabled.
    if (!user || user.disabled || !user.workspaceIds.includes(workspaceId))
      return failure('invalid_grant', 'The user no longer has access to the workspace.');
    const workspace = await this.store.workspaces.get(workspaceId);
    if (!workspace || workspace.suspended) return failure('invalid_grant', 'The workspace is suspended.');
    return null;
  }

  private mint(
    grant: Grant,
    withRefresh: boolean,
    now: string,
  ): { rows: TokenRecord[]; tokens: TokenAnswer } {
    const at = Date.parse(now);
    const access = newAccessToken();
    const row = (kind: 'access' | 'refresh', token: string, ttl: number, scopes: string): TokenRecord => ({
      token_hash: sha256Hex(token),
      kind,
      family_id: grant.familyId,
      client_id: grant.clientId,
      user_id: grant.userId,
      workspace_id: grant.workspaceId,
      scopes,
      resource: grant.resource,
      created_at: now,
      expires_at: new Date(at + ttl * 1000).toISOString(),
      rotated_at: null,
      revoked_at: null,
    });
    const rows = [row('access', access, this.settings.accessTtlSeconds, grant.accessScopes)];
    const tokens: TokenAnswer = {
      access_token: access,
      token_type: 'Bearer',
      expires_in: this.settings.accessTtlSeconds,
      scope: grant.accessScopes,
    };
    if (withRefresh) {
      const refresh = newRefreshToken();
      rows.push(row('refresh', refresh, this.settings.refreshTtlSeconds, grant.scopes));
      tokens.refresh_token = refresh;
    }
    return { rows, tokens };
  }
}

function refuse(error: OAuthFailure['error'], description: string): GrantOutcome {
  return { ok: false, problem: failure(error, description) };
}
