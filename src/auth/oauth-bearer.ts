/**
 * The OAuth access-token principal for the MCP resource server (`/v1/mcp`).
 *
 * RFC 6750 §2.1: the token comes as `Authorization: Bearer …` only (no query or body form).
 * RFC 6750 §3 / RFC 9728 §5.1: a missing, unknown, expired or revoked token, or one issued for
 * another audience (RFC 8707), answers 401 with `WWW-Authenticate: Bearer resource_metadata="…"`
 * so a client can discover the authorization server; RFC 6750 §3.1 `insufficient_scope` is 403.
 * The token is verified by the authorization server's store (src/oauth), injected here as a
 * verifier so auth/ does not depend on it. The workspace is read at each request: a suspended
 * one is refused at once, as on every other entry point.
 */
import { AppError } from '../core/errors.ts';
import type { Store } from '../store/index.ts';
import type { Authenticator } from './authenticator.ts';
import { isScope, type Scope } from './scopes.ts';

/** What the authorization server knows of a valid access token. */
export interface VerifiedAccessToken {
  workspaceId: string;
  userId: string;
  clientId: string;
  scopes: readonly string[];
  /** Epoch seconds. */
  expiresAt: number;
  /** The audience (RFC 8707 resource) the token was issued for. */
  resource: string;
}

export interface AccessTokenVerifier {
  /** null when the token is unknown, expired, revoked or not for `{base_url}/v1/mcp`. */
  verifyAccessToken(token: string): Promise<VerifiedAccessToken | null>;
}

export interface BearerChallenge {
  /** `{base_url}/.well-known/oauth-protected-resource/v1/mcp` (RFC 9728 §3.1). */
  resourceMetadataUrl: string;
  /** `{base_url}/v1/mcp`: a token for another audience is not ours to accept. */
  resource: string;
}

/** RFC 6750 §3 challenge: always names the metadata; `error` only when a token was presented. */
export function bearerChallenge(
  challenge: BearerChallenge,
  error?: { code: 'invalid_token' | 'insufficient_scope'; description: string; scope?: string },
): string {
  const parts = [`resource_metadata="${challenge.resourceMetadataUrl}"`];
  if (error) {
    parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/"/g, "'")}"`);
    if (error.scope) parts.push(`scope="${error.scope}"`);
  }
  return `Bearer ${parts.join(', ')}`;
}

const bearerOf = (authorization: string | undefined) =>
  /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization ?? '')?.[1];

export function oauthBearerAuthenticator(
  store: Store,
  verifier: AccessTokenVerifier,
  challenge: BearerChallenge,
): Authenticator {
  const unauthorized = (description?: string) =>
    new AppError('UNAUTHORIZED', 'A valid OAuth access token for this resource is required.', undefined, {
      'www-authenticate': bearerChallenge(
        challenge,
        description ? { code: 'invalid_token', description } : undefined,
      ),
    });
  const authenticate: Authenticator = async ({ headers, address }) => {
    const token = bearerOf(headers.authorization);
    if (!token) throw unauthorized();
    const verified = token.length <= 512 ? await verifier.verifyAccessToken(token) : null;
    if (!verified || verified.resource !== challenge.resource)
      throw unauthorized('The access token is invalid, expired, revoked or for another resource');
    const workspace = await store.workspaces.get(verified.workspaceId);
    if (!workspace) throw unauthorized('The workspace of this token no longer exists');
    return {
      principal: {
        workspaceId: verified.workspaceId,
        scopes: new Set<Scope>(verified.scopes.filter(isScope)),
        actor: { type: 'oauth', clientId: verified.clientId, userId: verified.userId },
        address,
      },
      workspaceSuspended: workspace.suspended,
    };
  };
  authenticate.insufficientScope = (scope) => insufficientScope(challenge, scope);
  return authenticate;
}

/** RFC 6750 §3.1: 403 naming the scope the request needs (an MCP client may then step up). */
export function insufficientScope(challenge: BearerChallenge, scope: Scope): AppError {
  return new AppError(
    'INSUFFICIENT_SCOPE',
    `This request needs the scope ${scope}.`,
    { requiredScope: scope },
    {
      'www-authenticate': bearerChallenge(challenge, {
        code: 'insufficient_scope',
        description: `This request needs the scope ${scope}`,
        scope,
      }),
    },
  );
}
