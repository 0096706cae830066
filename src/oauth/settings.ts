/**
 * The authorization server's fixed facts: its issuer (RFC 8414 §2: the base URL, no trailing
 * slash, byte-identical in metadata and in every RFC 9207 `iss`), the one protected resource it
 * issues tokens for (RFC 8707: `{base_url}/v1/mcp`), lifetimes, and the scope vocabulary (the
 * five API scopes, RFC 6749 §3.3).
 */
import { isScope, SCOPES, type Scope } from '../auth/index.ts';

export interface OAuthSettings {
  issuer: string;
  /** The audience of every token: `{base_url}/v1/mcp`. */
  resource: string;
  /** RFC 9728 §3.1 path form for the resource; the URL for `WWW-Authenticate: Bearer resource_metadata=…`. */
  resourceMetadataUrl: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** Client registrations per client address and hour; 0: unlimited. */
  registrationsPerHour: number;
  /** Authorization codes live this long (RFC 6749 §4.1.2 recommends at most 10 minutes). */
  codeTtlSeconds: number;
  /** A pending authorization request waits this long for sign-in and consent. */
  requestTtlSeconds: number;
}

export function oauthSettings(input: {
  baseUrl: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  registrationsPerHour: number;
}): OAuthSettings {
  const issuer = input.baseUrl.replace(/\/+$/, '');
  return {
    issuer,
    resource: `${issuer}/v1/mcp`,
    resourceMetadataUrl: `${issuer}/.well-known/oauth-protected-resource/v1/mcp`,
    accessTtlSeconds: input.accessTtlSeconds,
    refreshTtlSeconds: input.refreshTtlSeconds,
    registrationsPerHour: input.registrationsPerHour,
    codeTtlSeconds: 60,
    requestTtlSeconds: 600,
  };
}

/** RFC 6749 §3.3 scope: space-delimited, canonical order, no repeats; null if one is unknown. */
export function parseScope(value: string): Scope[] | null {
  const names = value.split(' ').filter(Boolean);
  if (!names.every(isScope)) return null;
  return SCOPES.filter((s) => names.includes(s));
}

export const formatScope = (scopes: readonly string[]): string => scopes.join(' ');

/** What each scope lets a client do, in plain words (the consent page). */
export const SCOPE_WORDS: Record<Scope, string> = {
  'template:read': 'See your templates and their designs',
  'template:write': 'Create, change and delete templates',
  'render:write': 'Render templates to images and PDFs (this spends credits)',
  'asset:read': 'See your uploaded images and fonts',
  'asset:write': 'Upload and delete images and fonts',
};
