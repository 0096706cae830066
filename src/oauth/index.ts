/**
 * The OAuth 2.0 authorization server for the MCP server (RFC 6749, 7636, 7591, 7009, 8414, 8707,
 * 9207, 9728): discovery, dynamic registration, authorization with sign-in and consent, tokens and
 * revocation, and `services.oauth.verifyAccessToken` for the resource server at /v1/mcp.
 * Tokens, codes, requests and clients live in the database, so instances share them.
 */

import type { Feature } from '../http/context.ts';
import { acceptFormBodies } from '../http/form-body.ts';
import type { PeopleService } from '../people/index.ts';
import { authorizeRoute } from './authorize.ts';
import { consentRoutes } from './consent.ts';
import { installOAuthErrorHandler } from './errors.ts';
import { metadataRoutes } from './metadata.ts';
import { registerRoute } from './register.ts';
import type { OAuthService } from './service.ts';
import { tokenRoutes } from './token.ts';

export {
  AUTHORIZATION_SERVER_METADATA_PATH,
  authorizationServerMetadata,
  PROTECTED_RESOURCE_METADATA_PATHS,
  protectedResourceMetadata,
} from './metadata.ts';
export {
  type AuthorizationRequest,
  OAuthService,
  type PendingAuthorization,
  type VerifiedAccessToken,
} from './service.ts';
export { type OAuthSettings, oauthSettings, SCOPE_WORDS } from './settings.ts';

/** Paths browser-based clients call from other origins (discovery, registration, token, revocation). */
const browserPaths = (url: string): boolean =>
  url.startsWith('/.well-known/oauth-') || ['/oauth/register', '/oauth/token', '/oauth/revoke'].includes(url);

export function oauthFeature(oauth: OAuthService, people: PeopleService): Feature {
  return {
    name: 'oauth',
    corsPaths: browserPaths,
    routes: async (app) => {
      acceptFormBodies(app);
      installOAuthErrorHandler(app);
      metadataRoutes(oauth.settings)(app);
      registerRoute(oauth)(app);
      authorizeRoute(oauth, people)(app);
      consentRoutes(oauth, people)(app);
      tokenRoutes(oauth)(app);
    },
  };
}
