/**
 * Authentication: credentials become a principal `{workspaceId, scopes, actor}` here and nowhere
 * else. One authenticator per principal kind (API key, operator token; embed session and OAuth
 * access token join them with their features); the HTTP kernel runs the one a route declares.
 */
export { apiKeyAuthenticator, authenticateApiKey, extractApiKey } from './api-key-auth.ts';
export { ApiKeyService, type ApiKeyView } from './api-keys.ts';
export type { Authenticator, Authenticators, AuthInput, AuthKind } from './authenticator.ts';
export {
  EmbedSessionTokens,
  embedScopes,
  embedSessionAuthenticator,
  type MintedSession,
} from './embed-session.ts';
export {
  type AccessTokenVerifier,
  type BearerChallenge,
  bearerChallenge,
  insufficientScope,
  oauthBearerAuthenticator,
  type VerifiedAccessToken,
} from './oauth-bearer.ts';
export { operatorTokenAuthenticator } from './operator-token.ts';
export {
  type Actor,
  actorLabel,
  assertManages,
  assertOperator,
  assertSameWorkspace,
  isOperator,
  manages,
  type Principal,
  principalOf,
  requirePrincipal,
  systemPrincipal,
} from './principal.ts';
export { isScope, SCOPES, type Scope, scopeSchema } from './scopes.ts';
export { signedUrlAuthenticator } from './signed-url-auth.ts';
export {
  assetFilterOf,
  assetScopeOf,
  type Ownership,
  ownedBy,
  ownerOnCreate,
  ownsOrShared,
  type Tenancy,
  tenancyOf,
} from './tenancy.ts';
export { parseSignedUrl, signUrl } from './url-signature.ts';
