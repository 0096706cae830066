/**
 * OAuth hardening: a failed client authentication at `/oauth/token` and `/oauth/revoke` answers its
 * RFC 6749 §5.2 error and logs nothing at level 50 or above (it once logged a TypeError: an await on
 * the sent reply); a redirect URI matches a registered one as the same string (RFC 6749 §3.1.2.3,
 * OAuth 2.1 §2.3.1), only a loopback URI's port may differ (RFC 8252 §7.3): userinfo, a changed path
 * or query, another spelling of the host do not match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRedirectUri } from '../src/oauth/redirect-uris.ts';
import { startTestServer } from './harness/server.ts';

describe('matchRedirectUri', () => {
  const registered = ['http://127.0.0.1/cb', 'http://localhost:8976/callback?x=1', 'https://app.example/cb'];
  it.each([
    ['http://127.0.0.1/cb', 'http://127.0.0.1/cb'],
    ['http://127.0.0.1:51000/cb', 'http://127.0.0.1/cb'],
    ['http://localhost:1234/callback?x=1', 'http://localhost:8976/callback?x=1'],
    ['https://app.example/cb', 'https://app.example/cb'],
  ])('%s matches %s', (requested, expected) => {
    expect(matchRedirectUri(registered, requested)).toBe(expected);
  });
  it.each([
    'http://u@127.0.0.1/cb',
    'http://u:p@127.0.0.1/cb',
    'http://u@127.0.0.1:51000/cb',
    'http://127.0.0.1@evil.example/cb',
    'http://127.0.0.1:51000/cb/',
    'http://127.0.0.1:51000/x/../cb',
    'http://127.0.0.1:51000/%63b',
    'http://127.0.0.1:51000/cb?y=2',
    'http://127.0.0.1:51000/cb#f',
    'HTTP://127.0.0.1:51000/cb',
    'http://127.1:51000/cb',
    'http://localhost:1234/callback',
    'http://127.0.0.1:99999/cb',
    'https://app.example:443/cb',
    'https://u@app.example/cb',
  ])('%s matches nothing', (requested) => {
    expect(matchRedirectUri(registered, requested)).toBeNull();
  });
});

describe('OAuth endpoints on a real server, with its log', () => {
  let base = '';
  let close: () => Promise<void>;
  const lines: string[] = [];
  const levels = () =>
    lines.map((line) => JSON.parse(line) as { level: number; msg?: string; err?: unknown });

  beforeAll(async () => {
    const server = await startTestServer(
      'sqlite',
      { PLATEN_OAUTH_REGISTRATIONS_PER_HOUR: '0' },
      { logTo: lines },
    );
    base = server.base;
    close = () => server.close();
  });
  afterAll(() => close());

  const register = async (metadata: Record<string, unknown>) => {
    const response = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'hardening',
        redirect_uris: ['http://127.0.0.1:8976/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...metadata,
      }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { client_id: string; client_secret?: string };
  };
  const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
  });

  it('answers a failed client authentication with its RFC 6749 §5.2 error, and logs no error', async () => {
    const confidential = await register({ token_endpoint_auth_method: 'client_secret_basic' });
    const bySecretPost = await register({ token_endpoint_auth_method: 'client_secret_post' });
    const grant = { grant_type: 'refresh_token', refresh_token: 'prt_unknown' };
    const cases: Array<[string, Promise<Response>, number, string, boolean]> = [];
    for (const path of ['/oauth/token', '/oauth/revoke']) {
      const body = path === '/oauth/token' ? grant : { token: 'pat_unknown' };
      cases.push(
        [
          `${path} wrong Basic secret`,
          post(path, form(body), basic(confidential.client_id, 'wrong')),
          401,
          'invalid_client',
          true,
        ],
        [
          `${path} malformed Basic`,
          post(path, form(body), { authorization: 'Basic bm9jb2xvbg==' }),
          401,
          'invalid_client',
          true,
        ],
        [
          `${path} wrong post secret`,
          post(path, form({ ...body, client_id: bySecretPost.client_id, client_secret: 'wrong' })),
          401,
          'invalid_client',
          false,
        ],
        [
          `${path} unknown client`,
          post(path, form({ ...body, client_id: 'cli_0000000000000000000000' })),
          401,
          'invalid_client',
          false,
        ],
        [`${path} no client`, post(path, form(body)), 401, 'invalid_client', false],
        [
          `${path} two methods`,
          post(path, form({ ...body, client_secret: 'x' }), basic(confidential.client_id, 'y')),
          400,
          'invalid_request',
          false,
        ],
        [
          `${path} not a form`,
          fetch(`${base}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          }),
          400,
          'invalid_request',
          false,
        ],
      );
    }
    for (const [name, answer, status, error, challenge] of cases) {
      const response = await answer;
      const json = (await response.json()) as { error: string; error_description: string };
      expect([name, response.status, json.error], name).toEqual([name, status, error]);
      expect(typeof json.error_description).toBe('string');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('www-authenticate') !== null, name).toBe(challenge);
    }
    // The right secret still works: an unknown token is revoked "successfully" (RFC 7009 §2.2).
    expect(
      (
        await post(
          '/oauth/revoke',
          form({ token: 'pat_unknown' }),
          basic(confidential.client_id, confidential.client_secret ?? ''),
        )
      ).status,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const severe = levels().filter((entry) => entry.level >= 50);
    expect(severe).toEqual([]);
    expect(levels().some((entry) => entry.msg === 'request completed')).toBe(true);
  });

  it('refuses an authorization request whose redirect URI carries userinfo (an error page, no redirect)', async () => {
    const client = await register({ token_endpoint_auth_method: 'none' });
    const authorize = (redirectUri: string) => {
      const url = new URL(`${base}/oauth/authorize`);
      for (const [name, value] of Object.entries({
        client_id: client.client_id,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'template:read',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        state: 'xyz',
        resource: `${base}/v1/mcp`,
      }))
        url.searchParams.set(name, value);
      return fetch(url, { redirect: 'manual' });
    };
    // The registered URI, on another port: accepted (to sign-in, since no one is signed in).
    const allowed = await authorize('http://127.0.0.1:9999/callback');
    expect(allowed.status).toBe(302);
    for (const uri of [
      'http://u@127.0.0.1:8976/callback',
      'http://u@127.0.0.1/callback',
      'http://127.0.0.1:8976/callback/',
    ]) {
      const refused = await authorize(uri);
      expect([uri, refused.status, refused.headers.get('location')]).toEqual([uri, 400, null]);
    }
  });
});
