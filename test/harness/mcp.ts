/**
 * MCP test helpers: an `OAuthClientProvider` for the official SDK client that plays the person at
 * the real sign-in and consent pages, and a raw token for a chosen scope (register, PKCE, consent,
 * code exchange) for requests the SDK client would not make.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { authorizeInBrowser } from './oauth.ts';

export interface Person {
  email: string;
  password: string;
  workspaceId?: string;
}

/** Nothing listens here: the provider reads the code from the final redirect's Location. */
export const CALLBACK = 'http://127.0.0.1:8976/callback';

export class PersonPlayingProvider implements OAuthClientProvider {
  callback: URL | null = null;
  authorizations = 0;
  private client: OAuthClientInformationMixed | undefined;
  private stored: OAuthTokens | undefined;
  private verifier = '';

  constructor(
    private readonly person: Person,
    private readonly scope?: string,
  ) {}

  get redirectUrl(): string {
    return CALLBACK;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Platen MCP test',
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }

  state(): string {
    return randomBytes(16).toString('base64url');
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.stored = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizations++;
    this.callback = new URL(await authorizeInBrowser(url.href, this.person));
  }
}

/** A bearer token for `scope`, through the real endpoints (no SDK), for hand-made requests. */
export async function accessTokenFor(base: string, person: Person, scope: string): Promise<string> {
  const registered = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'raw',
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  const client = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(`${base}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: CALLBACK,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'raw-state',
    scope,
    resource: `${base}/v1/mcp`,
  }))
    authorize.searchParams.set(name, value);
  const callback = new URL(await authorizeInBrowser(authorize.href, person));
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.href}`);
  const token = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: client.client_id,
      resource: `${base}/v1/mcp`,
    }),
  });
  const body = (await token.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`token: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A JSON-RPC call to /v1/mcp by hand. */
export async function rawMcp(base: string, token: string | null, message: unknown, method = 'POST') {
  const response = await fetch(`${base}/v1/mcp`, {
    method,
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify(message) } : {}),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, json, text };
}
