/**
 * The OAuth authorization server driven by oauth4webapi, a strict client no one here wrote:
 * discovery (RFC 8414 with `algorithm: 'oauth2'`, RFC 9728 at both URLs), registration (public and
 * confidential), authorization through the real sign-in and consent pages with `iss` validated
 * (RFC 9207), the code grant, refresh rotation, revocation, and what the resource server's
 * verifier makes of the tokens.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './harness/backends.ts';
import { createUser } from './harness/oauth.ts';
import {
  authorize,
  discover,
  exchangeCode,
  insecure,
  oauthErrorOf,
  refresh,
  registerClient,
  tokensFor,
} from './harness/oauth-flow.ts';
import { admin, http, startTestServer, type TestServer } from './harness/server.ts';

const ALL = 'template:read template:write render:write asset:read asset:write';

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `OAuth flow on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      let person: { email: string; password: string };
      let workspaces: string[];
      beforeAll(async () => {
        server = await startTestServer(backend.name, { PLATEN_OAUTH_REGISTRATIONS_PER_HOUR: '0' });
        workspaces = [];
        for (const name of ['First', 'Second']) {
          const ws = await admin(server.base, 'POST', '/workspaces', { name, credits: 10 });
          workspaces.push(ws.json.id);
        }
        person = { email: 'ada@example.com', password: 'correct horse battery' };
        await createUser(server.base, { ...person, workspaceIds: workspaces });
      });
      afterAll(() => server.close());

      describe('discovery', () => {
        it('serves RFC 8414 metadata with the issuer, S256 and the five scopes', async () => {
          const as = await discover(server.base);
          expect(as.issuer).toBe(server.base);
          expect(as).toMatchObject({
            authorization_endpoint: `${server.base}/oauth/authorize`,
            token_endpoint: `${server.base}/oauth/token`,
            registration_endpoint: `${server.base}/oauth/register`,
            revocation_endpoint: `${server.base}/oauth/revoke`,
            response_types_supported: ['code'],
            grant_types_supported: ['authorization_code', 'refresh_token'],
            code_challenge_methods_supported: ['S256'],
            authorization_response_iss_parameter_supported: true,
          });
          expect(as.scopes_supported).toEqual(ALL.split(' '));
          expect(as.token_endpoint_auth_methods_supported).toEqual(
            expect.arrayContaining(['none', 'client_secret_basic', 'client_secret_post']),
          );
        });

        it('serves RFC 9728 metadata at the root and in path form, naming the same issuer', async () => {
          const resource = new URL(`${server.base}/v1/mcp`);
          const pathForm = await oauth.processResourceDiscoveryResponse(
            resource,
            await oauth.resourceDiscoveryRequest(resource, insecure),
          );
          expect(pathForm).toMatchObject({
            resource: resource.href,
            authorization_servers: [server.base],
            bearer_methods_supported: ['header'],
            scopes_supported: ALL.split(' '),
          });
          const root = await http(server.base, 'GET', '/.well-known/oauth-protected-resource');
          expect(root.status).toBe(200);
          expect(root.json).toEqual(pathForm);
          const as = await discover(root.json.authorization_servers[0]);
          expect(as.issuer).toBe(pathForm.authorization_servers?.[0]);
        });
      });

      describe('registration', () => {
        it('registers a public client (201) echoing its metadata', async () => {
          const { client } = await registerClient(server.base, { client_name: 'Public' });
          expect(client.client_id).toMatch(/^cli_/);
          expect(client).toMatchObject({
            client_name: 'Public',
            redirect_uris: ['http://127.0.0.1:8976/callback'],
            token_endpoint_auth_method: 'none',
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
          });
          expect(typeof client.client_id_issued_at).toBe('number');
          expect(client.client_secret).toBeUndefined();
        });

        it('registers confidential clients with a secret that never expires', async () => {
          for (const method of ['client_secret_basic', 'client_secret_post']) {
            const { client } = await registerClient(server.base, { token_endpoint_auth_method: method });
            expect(client.client_secret).toMatch(/^pcs_/);
            expect(client.client_secret_expires_at).toBe(0);
          }
        });
      });

      describe('authorization code grant', () => {
        it('issues audience-bound tokens for the workspace the person picked', async () => {
          const flow = await registerClient(server.base);
          const { params, authorization, callback } = await authorize(flow, {
            ...person,
            workspaceId: workspaces[1],
          });
          expect(callback.origin + callback.pathname).toBe('http://127.0.0.1:8976/callback');
          expect(callback.searchParams.get('iss')).toBe(server.base);
          expect(callback.searchParams.get('state')).toBe(authorization.state);
          const tokens = await exchangeCode(flow, params, authorization.verifier);
          expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 900, scope: ALL });
          expect(tokens.refresh_token).toEqual(expect.any(String));
          const verified = await server.services.oauth.verifyAccessToken(tokens.access_token);
          expect(verified).toMatchObject({
            workspaceId: workspaces[1],
            clientId: flow.client.client_id,
            scopes: ALL.split(' '),
            resource: `${server.base}/v1/mcp`,
          });
          expect(verified?.userId).toMatch(/^usr_/);
          const now = Date.now() / 1000;
          expect(verified?.expiresAt).toBeGreaterThan(now + 890);
          expect(verified?.expiresAt).toBeLessThanOrEqual(now + 901);
          expect(await server.services.oauth.verifyAccessToken(tokens.refresh_token ?? '')).toBeNull();
        });

        it('preselects the first workspace and narrows to the scope asked for', async () => {
          const flow = await registerClient(server.base);
          const { params, authorization } = await authorize(flow, person, { scope: 'template:read' });
          const tokens = await exchangeCode(flow, params, authorization.verifier);
          expect(tokens.scope).toBe('template:read');
          const verified = await server.services.oauth.verifyAccessToken(tokens.access_token);
          expect(verified).toMatchObject({ workspaceId: workspaces[0], scopes: ['template:read'] });
        });

        it('asks for all five scopes when the request names none', async () => {
          const flow = await registerClient(server.base);
          const { params, authorization } = await authorize(flow, person, { scope: undefined });
          expect((await exchangeCode(flow, params, authorization.verifier)).scope).toBe(ALL);
        });

        it('accepts a loopback redirect URI on another port (RFC 8252)', async () => {
          const flow = await registerClient(server.base);
          const other = 'http://127.0.0.1:9999/callback';
          const { params, authorization, callback } = await authorize(flow, person, { redirect_uri: other });
          expect(callback.host).toBe('127.0.0.1:9999');
          const tokens = await exchangeCode(flow, params, authorization.verifier, { redirectUri: other });
          expect(tokens.access_token).toEqual(expect.any(String));
        });

        it('works for confidential clients with Basic and with post authentication', async () => {
          for (const method of ['client_secret_basic', 'client_secret_post']) {
            const flow = await registerClient(server.base, { token_endpoint_auth_method: method });
            const { params, authorization } = await authorize(flow, person);
            const tokens = await exchangeCode(flow, params, authorization.verifier);
            expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).not.toBeNull();
          }
        });

        it('answers tokens with Cache-Control: no-store', async () => {
          const flow = await registerClient(server.base);
          const { params, authorization } = await authorize(flow, person);
          const response = await oauth.authorizationCodeGrantRequest(
            flow.as,
            flow.client,
            flow.auth,
            params,
            'http://127.0.0.1:8976/callback',
            authorization.verifier,
            { ...insecure, additionalParameters: { resource: flow.resource } },
          );
          expect(response.status).toBe(200);
          expect(response.headers.get('cache-control')).toBe('no-store');
          expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        });
      });

      describe('refresh and revocation', () => {
        it('rotates the refresh token at every use; old access tokens keep working until they expire', async () => {
          const { flow, tokens } = await tokensFor(server.base, person);
          const second = await refresh(flow, tokens.refresh_token ?? '');
          expect(second.refresh_token).not.toBe(tokens.refresh_token);
          expect(second.access_token).not.toBe(tokens.access_token);
          const third = await refresh(flow, second.refresh_token ?? '');
          expect(third.scope).toBe(ALL);
          expect(await server.services.oauth.verifyAccessToken(third.access_token)).not.toBeNull();
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).not.toBeNull();
        });

        it('narrows the scope of the access token on refresh, keeping the grant for the next', async () => {
          const { flow, tokens } = await tokensFor(server.base, person);
          const narrow = await refresh(flow, tokens.refresh_token ?? '', { scope: 'template:read' });
          expect(narrow.scope).toBe('template:read');
          expect((await server.services.oauth.verifyAccessToken(narrow.access_token))?.scopes).toEqual([
            'template:read',
          ]);
          const wide = await refresh(flow, narrow.refresh_token ?? '');
          expect(wide.scope).toBe(ALL);
        });

        it('revokes an access token (200), and a refresh token with its family', async () => {
          const { flow, tokens } = await tokensFor(server.base, person);
          await oauth.processRevocationResponse(
            await oauth.revocationRequest(flow.as, flow.client, flow.auth, tokens.access_token, insecure),
          );
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).toBeNull();
          const next = await refresh(flow, tokens.refresh_token ?? '');
          await oauth.processRevocationResponse(
            await oauth.revocationRequest(
              flow.as,
              flow.client,
              flow.auth,
              next.refresh_token ?? '',
              insecure,
            ),
          );
          expect(await server.services.oauth.verifyAccessToken(next.access_token)).toBeNull();
          expect(await oauthErrorOf(refresh(flow, next.refresh_token ?? ''))).toBe('invalid_grant');
          // An unknown token is no error (RFC 7009 §2.2).
          await oauth.processRevocationResponse(
            await oauth.revocationRequest(flow.as, flow.client, flow.auth, 'nonsense', insecure),
          );
        });

        it("does not revoke another client's token", async () => {
          const { tokens } = await tokensFor(server.base, person);
          const other = await registerClient(server.base);
          await oauth.processRevocationResponse(
            await oauth.revocationRequest(other.as, other.client, other.auth, tokens.access_token, insecure),
          );
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).not.toBeNull();
        });
      });
    },
  );
}
