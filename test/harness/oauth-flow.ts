/**
 * oauth4webapi as a strict, independent OAuth client against a test server: discovery (RFC 8414,
 * RFC 9728), registration, an authorization URL with PKCE, the person in the browser, and the code
 * grant. Every step validates what the library validates; tests add their own checks on top.
 */
import * as oauth from 'oauth4webapi';
import { authorizeInBrowser, type BrowserPerson } from './oauth.ts';

export const insecure = { [oauth.allowInsecureRequests]: true } as const;
export const CALLBACK = 'http://127.0.0.1:8976/callback';

export interface Flow {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  resource: string;
}

export async function discover(base: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(base);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }),
  );
}

export async function registerClient(base: string, metadata: Partial<oauth.Client> = {}): Promise<Flow> {
  const as = await discover(base);
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: 'oauth4webapi test',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...metadata,
      },
      insecure,
    ),
  );
  const secret = client.client_secret as string | undefined;
  const method = client.token_endpoint_auth_method;
  const auth = !secret
    ? oauth.None()
    : method === 'client_secret_post'
      ? oauth.ClientSecretPost(secret)
      : oauth.ClientSecretBasic(secret);
  return { as, client, auth, resource: `${base}/v1/mcp` };
}

export interface Authorization {
  url: URL;
  verifier: string;
  state: string;
}

/** An authorization URL with PKCE S256, state and resource; `overrides` set or (undefined) drop parameters. */
export async function authorizationUrl(
  flow: Flow,
  overrides: Record<string, string | undefined> = {},
): Promise<Authorization> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(flow.as.authorization_endpoint ?? '');
  const params: Record<string, string | undefined> = {
    client_id: flow.client.client_id,
    redirect_uri: CALLBACK,
    response_type: 'code',
    scope: 'template:read template:write render:write asset:read asset:write',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource: flow.resource,
    ...overrides,
  };
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return { url, verifier, state };
}

/** Authorize as `person` and validate the callback (iss, state); the callback's parameters. */
export async function authorize(
  flow: Flow,
  person: BrowserPerson,
  overrides: Record<string, string | undefined> = {},
): Promise<{ params: URLSearchParams; authorization: Authorization; callback: URL }> {
  const authorization = await authorizationUrl(flow, overrides);
  const callback = new URL(await authorizeInBrowser(authorization.url.href, person));
  const params = oauth.validateAuthResponse(flow.as, flow.client, callback, authorization.state);
  return { params, authorization, callback };
}

export async function exchangeCode(
  flow: Flow,
  params: URLSearchParams,
  verifier: string,
  options: { redirectUri?: string; resource?: string | null } = {},
): Promise<oauth.TokenEndpointResponse> {
  const resource = options.resource === undefined ? flow.resource : options.resource;
  return oauth.processAuthorizationCodeResponse(
    flow.as,
    flow.client,
    await oauth.authorizationCodeGrantRequest(
      flow.as,
      flow.client,
      flow.auth,
      params,
      options.redirectUri ?? CALLBACK,
      verifier,
      {
        ...insecure,
        ...(resource === null ? {} : { additionalParameters: { resource } }),
      },
    ),
  );
}

export async function refresh(
  flow: Flow,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<oauth.TokenEndpointResponse> {
  return oauth.processRefreshTokenResponse(
    flow.as,
    flow.client,
    await oauth.refreshTokenGrantRequest(flow.as, flow.client, flow.auth, refreshToken, {
      ...insecure,
      additionalParameters: { resource: flow.resource, ...extra },
    }),
  );
}

/** The full flow: register, authorize as `person`, exchange the code. */
export async function tokensFor(
  base: string,
  person: BrowserPerson,
): Promise<{ flow: Flow; tokens: oauth.TokenEndpointResponse }> {
  const flow = await registerClient(base);
  const { params, authorization } = await authorize(flow, person);
  return { flow, tokens: await exchangeCode(flow, params, authorization.verifier) };
}

/** The OAuth error code a rejected promise carries (ResponseBodyError, AuthorizationResponseError, …). */
export async function oauthErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const e = error as { error?: string; cause?: { error?: string }; code?: string };
    return e.error ?? e.cause?.error ?? e.code ?? String(error);
  }
  throw new Error('expected an OAuth error');
}
