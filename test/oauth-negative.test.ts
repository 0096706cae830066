/**
 * Every MUST of the authorization server refused, with nothing issued: bad clients and redirect
 * URIs (an error page, never a redirect), PKCE missing, `plain` or wrong, `resource` missing or
 * wrong, a replayed code (and the tokens it issued revoked), a reused refresh token (its family
 * revoked), scope escalation, denied consent, CSRF and Origin on consent, suspended workspaces,
 * client authentication, registration metadata and rate, and tokens the verifier must refuse.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthService, oauthSettings } from '../src/oauth/index.ts';
import { backends } from './harness/backends.ts';
import { authorizeInBrowser, browse, CookieJar, createUser, parseForm, submit } from './harness/oauth.ts';
import {
  authorizationUrl,
  authorize,
  CALLBACK,
  exchangeCode,
  type Flow,
  oauthErrorOf,
  refresh,
  registerClient,
  tokensFor,
} from './harness/oauth-flow.ts';
import { admin, http, startTestServer, type TestServer } from './harness/server.ts';

/** Where GET /oauth/authorize sends a browser with no session (or null: no redirect). */
async function authorizeLocation(url: URL): Promise<{ status: number; location: URL | null; body: string }> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  return {
    status: response.status,
    location: location ? new URL(location, url) : null,
    body: await response.text(),
  };
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `OAuth refusals on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      let person: { email: string; password: string };
      let workspaceId: string;
      let flow: Flow;
      beforeAll(async () => {
        server = await startTestServer(backend.name, { PLATEN_OAUTH_REGISTRATIONS_PER_HOUR: '0' });
        const ws = await admin(server.base, 'POST', '/workspaces', { name: 'Main', credits: 10 });
        workspaceId = ws.json.id;
        person = { email: 'grace@example.com', password: 'a long enough password' };
        await createUser(server.base, { ...person, workspaceIds: [workspaceId] });
        flow = await registerClient(server.base);
      });
      afterAll(() => server.close());

      describe('the authorization request', () => {
        it('shows an error page, never a redirect, for an unknown client or an unregistered redirect URI', async () => {
          for (const overrides of [
            { client_id: 'cli_0000000000000000000000' },
            { client_id: undefined },
            { redirect_uri: 'https://evil.example/callback' },
            { redirect_uri: 'http://127.0.0.1:8976/other' },
            { redirect_uri: 'http://localhost:8976/callback' },
            { redirect_uri: undefined },
          ]) {
            const { url } = await authorizationUrl(flow, overrides);
            const res = await authorizeLocation(url);
            expect([overrides, res.status, res.location]).toEqual([overrides, 400, null]);
            expect(res.body).toContain('<h1>');
          }
        });

        it.each([
          [
            'missing PKCE',
            { code_challenge: undefined, code_challenge_method: undefined },
            'invalid_request',
          ],
          ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
          ['no method', { code_challenge_method: undefined }, 'invalid_request'],
          ['malformed challenge', { code_challenge: 'short' }, 'invalid_request'],
          ['missing resource', { resource: undefined }, 'invalid_target'],
          ['another resource', { resource: 'https://other.example/v1/mcp' }, 'invalid_target'],
          ['unknown scope', { scope: 'template:read admin' }, 'invalid_scope'],
          ['empty scope', { scope: '' }, 'invalid_scope'],
          ['token response type', { response_type: 'token' }, 'unsupported_response_type'],
        ])(
          'redirects %s back with %s, state and iss, before any sign-in',
          async (_name, overrides, error) => {
            const { url, state } = await authorizationUrl(flow, overrides);
            const res = await authorizeLocation(url);
            expect(res.status).toBe(302);
            expect(res.location?.origin + (res.location?.pathname ?? '')).toBe(CALLBACK);
            expect(res.location?.searchParams.get('code')).toBeNull();
            expect(
              await oauthErrorOf(
                Promise.resolve().then(() =>
                  oauth.validateAuthResponse(
                    flow.as,
                    flow.client,
                    res.location ?? new URLSearchParams(),
                    state,
                  ),
                ),
              ),
            ).toBe(error);
            expect(res.location?.searchParams.get('state')).toBe(state);
            expect(res.location?.searchParams.get('iss')).toBe(server.base);
          },
        );

        it('refuses a repeated parameter', async () => {
          const { url } = await authorizationUrl(flow);
          url.searchParams.append('scope', 'template:read');
          const res = await authorizeLocation(url);
          expect(res.location?.searchParams.get('error')).toBe('invalid_request');
        });

        it('refuses a scope the client did not register', async () => {
          const narrow = await registerClient(server.base, { scope: 'template:read' });
          const { url } = await authorizationUrl(narrow, { scope: 'template:read template:write' });
          expect((await authorizeLocation(url)).location?.searchParams.get('error')).toBe('invalid_scope');
        });

        it('redirects a denied consent with access_denied, state and iss, and nothing to exchange', async () => {
          const authorization = await authorizationUrl(flow);
          const callback = new URL(
            await authorizeInBrowser(authorization.url.href, { ...person, deny: true }),
          );
          expect(callback.searchParams.get('error')).toBe('access_denied');
          expect(callback.searchParams.get('state')).toBe(authorization.state);
          expect(callback.searchParams.get('iss')).toBe(server.base);
          expect(callback.searchParams.get('code')).toBeNull();
          expect(
            await oauthErrorOf(
              Promise.resolve().then(() =>
                oauth.validateAuthResponse(flow.as, flow.client, callback, authorization.state),
              ),
            ),
          ).toBe('access_denied');
        });
      });

      describe('consent protection', () => {
        /** Signs in and opens the consent page; the jar and its form. */
        async function consentPage() {
          const jar = new CookieJar();
          const { url } = await authorizationUrl(flow);
          const toSignIn = await browse(url.href, jar);
          const signInUrl = new URL(toSignIn.headers.get('location') ?? '', server.base);
          const signInForm = parseForm(await (await browse(signInUrl.href, jar)).text());
          const signedIn = await submit(
            new URL(signInForm?.action ?? '', server.base).href,
            jar,
            { ...signInForm?.fields, ...person },
            server.base,
          );
          expect(signedIn.status).toBe(303);
          const consentUrl = new URL(signedIn.headers.get('location') ?? '', server.base);
          const page = await browse(consentUrl.href, jar);
          expect(page.status).toBe(200);
          const form = parseForm(await page.text());
          if (!form) throw new Error('no consent form');
          return { jar, form, action: new URL(form.action, server.base).href, page };
        }

        it('refuses a missing or wrong CSRF token and a foreign Origin with 403, issuing nothing', async () => {
          const { jar, form, action } = await consentPage();
          const fields: Record<string, string> = { ...form.fields, workspace: workspaceId };
          const { csrf: _csrf, ...withoutCsrf } = fields;
          for (const [body, origin] of [
            [withoutCsrf, server.base],
            [{ ...fields, csrf: 'forged' }, server.base],
            [{ ...fields, csrf: `${fields.csrf}x` }, server.base],
            [fields, 'https://evil.example'],
            [fields, 'null'],
          ] as const) {
            const res = await submit(action, jar, body, origin);
            expect([res.status, res.headers.get('location')]).toEqual([403, null]);
          }
          // The same token from a browser without the session cookie: nothing either.
          const stranger = await submit(action, new CookieJar(), fields, server.base);
          expect([stranger.status, stranger.headers.get('location')]).toEqual([403, null]);
          // The request is still pending for the real person, and is answered once.
          const allowed = await submit(action, jar, fields, server.base);
          expect(allowed.status).toBe(303);
          expect(new URL(allowed.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
          const again = await submit(action, jar, fields, server.base);
          expect([again.status, again.headers.get('location')]).toEqual([400, null]);
        });

        it('refuses a workspace the person does not belong to', async () => {
          const other = await admin(server.base, 'POST', '/workspaces', { name: 'Other' });
          const { jar, form, action } = await consentPage();
          const res = await submit(action, jar, { ...form.fields, workspace: other.json.id }, server.base);
          expect([res.status, res.headers.get('location')]).toEqual([400, null]);
        });

        it('forbids framing of the consent page and lets its form reach only this origin and the callback', async () => {
          const { page } = await consentPage();
          expect(page.headers.get('x-frame-options')).toBe('DENY');
          expect(page.headers.get('cache-control')).toBe('no-store');
          const csp = page.headers.get('content-security-policy') ?? '';
          expect(csp).toContain("frame-ancestors 'none'");
          expect(csp).toContain("default-src 'none'");
          expect(csp).toContain("form-action 'self' http://127.0.0.1:8976");
        });
      });

      describe('the token endpoint', () => {
        it('refuses a wrong code_verifier, and the code is spent', async () => {
          const { params, authorization } = await authorize(flow, person);
          const wrong = oauth.generateRandomCodeVerifier();
          expect(await oauthErrorOf(exchangeCode(flow, params, wrong))).toBe('invalid_grant');
          expect(await oauthErrorOf(exchangeCode(flow, params, authorization.verifier))).toBe(
            'invalid_grant',
          );
        });

        it('refuses another resource or redirect URI at the token endpoint', async () => {
          const a = await authorize(flow, person);
          expect(
            await oauthErrorOf(
              exchangeCode(flow, a.params, a.authorization.verifier, {
                resource: 'https://other.example/v1/mcp',
              }),
            ),
          ).toBe('invalid_target');
          const b = await authorize(flow, person);
          expect(
            await oauthErrorOf(
              exchangeCode(flow, b.params, b.authorization.verifier, {
                redirectUri: 'http://127.0.0.1:8976/other',
              }),
            ),
          ).toBe('invalid_grant');
        });

        it('takes a code without resource (it was bound at authorization) for that audience', async () => {
          const { params, authorization } = await authorize(flow, person);
          const tokens = await exchangeCode(flow, params, authorization.verifier, { resource: null });
          expect((await server.services.oauth.verifyAccessToken(tokens.access_token))?.resource).toBe(
            `${server.base}/v1/mcp`,
          );
        });

        it('answers a replayed code invalid_grant and revokes the tokens it issued', async () => {
          const { params, authorization } = await authorize(flow, person);
          const first = await exchangeCode(flow, params, authorization.verifier);
          expect(await server.services.oauth.verifyAccessToken(first.access_token)).not.toBeNull();
          expect(await oauthErrorOf(exchangeCode(flow, params, authorization.verifier))).toBe(
            'invalid_grant',
          );
          expect(await server.services.oauth.verifyAccessToken(first.access_token)).toBeNull();
          expect(await oauthErrorOf(refresh(flow, first.refresh_token ?? ''))).toBe('invalid_grant');
        });

        it("refuses another client's code", async () => {
          const { params, authorization } = await authorize(flow, person);
          const thief = await registerClient(server.base);
          expect(await oauthErrorOf(exchangeCode(thief, params, authorization.verifier))).toBe(
            'invalid_grant',
          );
        });

        it('answers a reused refresh token invalid_grant and revokes the whole family', async () => {
          const { flow: f, tokens } = await tokensFor(server.base, person);
          const second = await refresh(f, tokens.refresh_token ?? '');
          expect(await oauthErrorOf(refresh(f, tokens.refresh_token ?? ''))).toBe('invalid_grant');
          expect(await server.services.oauth.verifyAccessToken(second.access_token)).toBeNull();
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).toBeNull();
          expect(await oauthErrorOf(refresh(f, second.refresh_token ?? ''))).toBe('invalid_grant');
        });

        it('refuses scope escalation on refresh with invalid_scope, issuing nothing', async () => {
          const narrowFlow = await registerClient(server.base);
          const { params, authorization } = await authorize(narrowFlow, person, { scope: 'template:read' });
          const tokens = await exchangeCode(narrowFlow, params, authorization.verifier);
          for (const scope of ['template:read template:write', 'render:write', 'nonsense'])
            expect(await oauthErrorOf(refresh(narrowFlow, tokens.refresh_token ?? '', { scope }))).toBe(
              'invalid_scope',
            );
          // The refresh token was not spent by the refusals.
          expect((await refresh(narrowFlow, tokens.refresh_token ?? '')).scope).toBe('template:read');
        });

        it("refuses a refresh token of another client and a refresh token's use as a code", async () => {
          const { tokens } = await tokensFor(server.base, person);
          const other = await registerClient(server.base);
          expect(await oauthErrorOf(refresh(other, tokens.refresh_token ?? ''))).toBe('invalid_grant');
        });

        it('gives a suspended workspace no tokens (invalid_grant), by code or by refresh', async () => {
          const ws = await admin(server.base, 'POST', '/workspaces', { name: 'Soon suspended' });
          const member = { email: 'suspended@example.com', password: 'another long password' };
          await createUser(server.base, { ...member, workspaceIds: [ws.json.id] });
          const { flow: f, tokens } = await tokensFor(server.base, member);
          const { params, authorization } = await authorize(f, member);
          await admin(server.base, 'PATCH', `/workspaces/${ws.json.id}`, { suspended: true });
          expect(await oauthErrorOf(exchangeCode(f, params, authorization.verifier))).toBe('invalid_grant');
          expect(await oauthErrorOf(refresh(f, tokens.refresh_token ?? ''))).toBe('invalid_grant');
          await admin(server.base, 'PATCH', `/workspaces/${ws.json.id}`, { suspended: false });
          expect((await refresh(f, tokens.refresh_token ?? '')).access_token).toEqual(expect.any(String));
        });

        it('authenticates clients by their registered method (401 invalid_client otherwise)', async () => {
          const basic = await registerClient(server.base, {
            token_endpoint_auth_method: 'client_secret_basic',
          });
          const { params, authorization } = await authorize(basic, person);
          const form = (extra: Record<string, string>) =>
            new URLSearchParams({
              grant_type: 'authorization_code',
              code: params.get('code') ?? '',
              redirect_uri: CALLBACK,
              code_verifier: authorization.verifier,
              ...extra,
            }).toString();
          const post = (body: string, headers: Record<string, string> = {}) =>
            fetch(`${server.base}/oauth/token`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
              body,
            });
          const wrongBasic = await post(form({}), {
            authorization: `Basic ${Buffer.from(`${basic.client.client_id}:wrong`).toString('base64')}`,
          });
          expect(wrongBasic.status).toBe(401);
          expect(wrongBasic.headers.get('www-authenticate')).toMatch(/^Basic /);
          expect((await wrongBasic.json()).error).toBe('invalid_client');
          const asPublic = await post(form({ client_id: basic.client.client_id }));
          expect([asPublic.status, (await asPublic.json()).error]).toEqual([401, 'invalid_client']);
          const unknown = await post(form({ client_id: 'cli_0000000000000000000000' }));
          expect([unknown.status, (await unknown.json()).error]).toEqual([401, 'invalid_client']);
          const publicWithSecret = await post(form({ client_id: flow.client.client_id, client_secret: 'x' }));
          expect([publicWithSecret.status, (await publicWithSecret.json()).error]).toEqual([
            401,
            'invalid_client',
          ]);
          const grant = await post(`grant_type=password&client_id=${flow.client.client_id}`);
          expect([grant.status, (await grant.json()).error]).toEqual([400, 'unsupported_grant_type']);
          const json = await fetch(`${server.base}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ grant_type: 'authorization_code', client_id: flow.client.client_id }),
          });
          expect([json.status, (await json.json()).error]).toEqual([400, 'invalid_request']);
          // None of the refusals spent the code.
          const tokens = await exchangeCode(basic, params, authorization.verifier);
          expect(tokens.access_token).toEqual(expect.any(String));
        });
      });

      describe('registration', () => {
        it.each([
          [{}, 'invalid_redirect_uri'],
          [{ redirect_uris: [] }, 'invalid_redirect_uri'],
          [{ redirect_uris: ['http://example.com/cb'] }, 'invalid_redirect_uri'],
          [{ redirect_uris: ['https://example.com/cb#frag'] }, 'invalid_redirect_uri'],
          [{ redirect_uris: ['not a url'] }, 'invalid_redirect_uri'],
          [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
          [{ redirect_uris: [CALLBACK], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
          [{ redirect_uris: [CALLBACK], grant_types: ['refresh_token'] }, 'invalid_client_metadata'],
          [{ redirect_uris: [CALLBACK], response_types: ['token'] }, 'invalid_client_metadata'],
          [
            { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'private_key_jwt' },
            'invalid_client_metadata',
          ],
          [{ redirect_uris: [CALLBACK], client_name: 'x'.repeat(201) }, 'invalid_client_metadata'],
          [{ redirect_uris: [CALLBACK], scope: 'admin' }, 'invalid_client_metadata'],
        ])('refuses %j with 400 %s', async (body, error) => {
          const res = await http(server.base, 'POST', '/oauth/register', { body });
          expect([res.status, res.json?.error]).toEqual([400, error]);
          expect(res.json.error_description).toEqual(expect.any(String));
        });

        it('answers a body that is not JSON in RFC form', async () => {
          const res = await http(server.base, 'POST', '/oauth/register', {
            raw: '{nope',
            headers: { 'content-type': 'application/json' },
          });
          expect([res.status, res.json?.error]).toEqual([400, 'invalid_client_metadata']);
        });
      });

      describe('the verifier', () => {
        it('refuses a token of another audience, an expired token and nonsense', async () => {
          const { tokens } = await tokensFor(server.base, person);
          const elsewhere = new OAuthService(
            server.store,
            oauthSettings({
              baseUrl: 'https://other.example',
              accessTtlSeconds: 900,
              refreshTtlSeconds: 3600,
              registrationsPerHour: 0,
            }),
          );
          expect(await elsewhere.verifyAccessToken(tokens.access_token)).toBeNull();
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).not.toBeNull();
          const db = server.store.handle.db;
          const { sha256Hex } = await import('../src/core/ids.ts');
          const hash = sha256Hex(tokens.access_token);
          await db
            .updateTable('oauth_tokens')
            .set({ resource: 'https://other.example/v1/mcp' })
            .where('token_hash', '=', hash)
            .execute();
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).toBeNull();
          await db
            .updateTable('oauth_tokens')
            .set({ resource: `${server.base}/v1/mcp` })
            .where('token_hash', '=', hash)
            .execute();
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).not.toBeNull();
          await db
            .updateTable('oauth_tokens')
            .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
            .where('token_hash', '=', hash)
            .execute();
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).toBeNull();
          for (const token of ['', 'nonsense', `pat_${'A'.repeat(43)}`, 'x'.repeat(10_000)])
            expect(await server.services.oauth.verifyAccessToken(token)).toBeNull();
        });
      });
    },
  );
}

describe('registration rate per client address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { PLATEN_OAUTH_REGISTRATIONS_PER_HOUR: '2' });
  });
  afterAll(() => server.close());

  it('answers 429 temporarily_unavailable with Retry-After past the limit', async () => {
    const body = { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' };
    for (let i = 0; i < 2; i++)
      expect((await http(server.base, 'POST', '/oauth/register', { body })).status).toBe(201);
    const res = await http(server.base, 'POST', '/oauth/register', { body });
    expect([res.status, res.json?.error]).toEqual([429, 'temporarily_unavailable']);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('upkeep', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { PLATEN_OAUTH_REGISTRATIONS_PER_HOUR: '0' });
  });
  afterAll(() => server.close());

  it('sweeps expired tokens and keeps live ones', async () => {
    const ws = await admin(server.base, 'POST', '/workspaces', { name: 'w' });
    const person = { email: 'sweep@example.com', password: 'sweeping password' };
    await createUser(server.base, { ...person, workspaceIds: [ws.json.id] });
    const { tokens } = await tokensFor(server.base, person);
    const db = server.store.handle.db;
    const { sha256Hex } = await import('../src/core/ids.ts');
    await db
      .updateTable('oauth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', sha256Hex(tokens.refresh_token ?? ''))
      .execute();
    await server.services.oauth.sweep();
    await server.services.people.sweep();
    const left = await db.selectFrom('oauth_tokens').select('kind').execute();
    expect(left.map((r) => r.kind)).toEqual(['access']);
    expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).not.toBeNull();
  });
});
