/**
 * Clients: dynamic registration (RFC 7591 §2 metadata, §3.2.1 answer, §3.2.2 errors), bounded per
 * client address and hour, and client authentication at the token and revocation endpoints
 * (RFC 6749 §2.3.1: `client_secret_basic`, `client_secret_post`; public clients, `none`, name
 * themselves with `client_id`, §3.2.1). A client uses the one method it registered (§2.3: never two).
 * Secrets are random, kept as SHA-256, compared in constant time, and never expire.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { constantTimeEqual, randomBase62, randomToken, sha256Hex } from '../core/ids.ts';
import type { Store } from '../store/index.ts';
import type { ClientRecord } from '../store/oauth.ts';
import { failure, type OAuthFailure } from './errors.ts';
import { redirectUriProblem } from './redirect-uris.ts';
import { type OAuthSettings, parseScope } from './settings.ts';

export const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

const metadataSchema = z.object({
  redirect_uris: z.array(z.string()).min(1).max(10),
  // RFC 7591 §2: the default is client_secret_basic.
  token_endpoint_auth_method: z.enum(AUTH_METHODS).default('client_secret_basic'),
  grant_types: z.array(z.enum(GRANT_TYPES)).min(1).max(2).default(['authorization_code']),
  response_types: z.array(z.literal('code')).min(1).max(1).default(['code']),
  client_name: z.string().trim().min(1).max(200).optional(),
  scope: z.string().max(1000).optional(),
});

export type ClientMetadata = z.infer<typeof metadataSchema>;

export interface RegisteredClient {
  client: ClientMetadata & { client_id: string; client_id_issued_at: number };
  /** Confidential clients: shown in this answer only. */
  secret: string | null;
}

export type Registration =
  | { ok: true; registered: RegisteredClient }
  | { ok: false; status: 400 | 429; problem: OAuthFailure };

export type ClientAuthentication =
  | { ok: true; client: ClientRecord }
  | { ok: false; status: 400 | 401; problem: OAuthFailure; challenge: boolean };

export const clientMetadata = (client: ClientRecord) => client.metadata as ClientMetadata;

const HOUR_MS = 3_600_000;

export class ClientService {
  constructor(
    private readonly store: Store,
    private readonly settings: OAuthSettings,
  ) {}

  async register(body: unknown, address: string): Promise<Registration> {
    const limit = this.settings.registrationsPerHour;
    if (limit > 0) {
      const since = new Date(Date.now() - HOUR_MS).toISOString();
      if ((await this.store.oauth.registrationsSince(address, since)) >= limit) {
        return {
          ok: false,
          status: 429,
          problem: failure(
            'temporarily_unavailable',
            'Too many registrations from this address; retry later.',
          ),
        };
      }
    }
    const uris = (body as { redirect_uris?: unknown } | null)?.redirect_uris;
    if (
      !Array.isArray(uris) ||
      uris.length === 0 ||
      uris.length > 10 ||
      !uris.every((u) => typeof u === 'string')
    )
      return invalid('invalid_redirect_uri', 'redirect_uris must list 1 to 10 URIs.');
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) return invalid('invalid_redirect_uri', `Redirect URI ${uri.slice(0, 200)}: ${problem}.`);
    }
    const parsed = metadataSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return invalid(
        'invalid_client_metadata',
        `${issue?.path.join('.') || 'metadata'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const metadata = parsed.data;
    if (!metadata.grant_types.includes('authorization_code'))
      return invalid('invalid_client_metadata', 'grant_types must include authorization_code.');
    if (metadata.scope !== undefined && !parseScope(metadata.scope)?.length)
      return invalid('invalid_client_metadata', 'scope names a scope this server does not know.');
    const registered: RegisteredClient = {
      client: {
        ...metadata,
        grant_types: [...new Set(metadata.grant_types)],
        client_id: `cli_${randomBase62(22)}`,
        client_id_issued_at: Math.floor(Date.now() / 1000),
      },
      secret: metadata.token_endpoint_auth_method === 'none' ? null : `pcs_${randomToken(32)}`,
    };
    await this.store.oauth.createClient({
      id: registered.client.client_id,
      secretHash: registered.secret ? sha256Hex(registered.secret) : null,
      authMethod: metadata.token_endpoint_auth_method,
      metadata: registered.client,
      createdAt: new Date().toISOString(),
      registeredFrom: address,
    });
    return { ok: true, registered };
  }

  find(clientId: string): Promise<ClientRecord | null> {
    if (!/^cli_[0-9A-Za-z]{22}$/.test(clientId)) return Promise.resolve(null);
    return this.store.oauth.client(clientId);
  }

  /** RFC 6749 §2.3.1 and §3.2.1 for a token or revocation request. */
  async authenticate(
    headers: IncomingHttpHeaders,
    body: Record<string, unknown>,
  ): Promise<ClientAuthentication> {
    const basic = parseBasic(headers.authorization);
    const bodyId = typeof body.client_id === 'string' ? body.client_id : undefined;
    const bodySecret = typeof body.client_secret === 'string' ? body.client_secret : undefined;
    const refuse = (status: 400 | 401, problem: OAuthFailure): ClientAuthentication => ({
      ok: false,
      status,
      problem,
      challenge: basic !== undefined,
    });
    if (basic === null) return refuse(401, failure('invalid_client', 'Malformed Basic credentials.'));
    if (basic && bodySecret !== undefined)
      return refuse(400, failure('invalid_request', 'Use one client authentication method, not two.'));
    if (basic && bodyId !== undefined && bodyId !== basic.id)
      return refuse(400, failure('invalid_request', 'client_id differs from the Basic credentials.'));
    const id = basic?.id ?? bodyId;
    if (!id) return refuse(401, failure('invalid_client', 'The client is not identified.'));
    const method = basic ? 'client_secret_basic' : bodySecret !== undefined ? 'client_secret_post' : 'none';
    const secret = basic?.secret ?? bodySecret;
    const client = await this.find(id);
    if (!client || client.authMethod !== method)
      return refuse(401, failure('invalid_client', 'Client authentication failed.'));
    if (
      method !== 'none' &&
      !(client.secretHash && secret && constantTimeEqual(sha256Hex(secret), client.secretHash))
    )
      return refuse(401, failure('invalid_client', 'Client authentication failed.'));
    return { ok: true, client };
  }
}

function invalid(
  error: 'invalid_redirect_uri' | 'invalid_client_metadata',
  description: string,
): Registration {
  return { ok: false, status: 400, problem: failure(error, description) };
}

/** undefined: no Basic header; null: a malformed one. Both parts are form-urlencoded (§2.3.1). */
function parseBasic(header: string | undefined): { id: string; secret: string } | null | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}
