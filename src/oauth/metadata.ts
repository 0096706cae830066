/**
 * Discovery. RFC 8414 §2-§3 authorization server metadata at `/.well-known/oauth-authorization-server`
 * (the issuer has no path, so this is also its path form, §3.1); RFC 9728 §2-§3 protected resource
 * metadata for `{base_url}/v1/mcp`, served at the root and in path form
 * (`/.well-known/oauth-protected-resource/v1/mcp`, §3.1), both naming the one issuer.
 * `authorization_response_iss_parameter_supported` (RFC 9207 §3) is true: every authorization
 * response carries `iss`.
 */
import type { FastifyInstance } from 'fastify';
import { SCOPES } from '../auth/index.ts';
import { AUTH_METHODS, GRANT_TYPES } from './clients.ts';
import type { OAuthSettings } from './settings.ts';

export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const PROTECTED_RESOURCE_METADATA_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/v1/mcp',
] as const;

export function authorizationServerMetadata(settings: OAuthSettings) {
  const { issuer } = settings;
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...AUTH_METHODS],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  };
}

export function protectedResourceMetadata(settings: OAuthSettings) {
  return {
    resource: settings.resource,
    authorization_servers: [settings.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Platen MCP server',
  };
}

export function metadataRoutes(settings: OAuthSettings) {
  const as = authorizationServerMetadata(settings);
  const rs = protectedResourceMetadata(settings);
  return (app: FastifyInstance): void => {
    const options = { config: { auth: 'none' as const }, schema: { hide: true } };
    app.get(AUTHORIZATION_SERVER_METADATA_PATH, options, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send(as),
    );
    for (const path of PROTECTED_RESOURCE_METADATA_PATHS)
      app.get(path, options, async (_request, reply) =>
        reply.header('cache-control', 'public, max-age=300').send(rs),
      );
  };
}
