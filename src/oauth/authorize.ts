/**
 * `GET /oauth/authorize`: the authorization request (RFC 6749 §4.1.1) with PKCE (RFC 7636 §4.3,
 * S256 only) and a resource indicator (RFC 8707 §2). The client and its redirect URI are checked
 * first (exact match; any port for loopback, RFC 8252 §7.3); if either is wrong the person sees an
 * error page and nothing is redirected (RFC 6749 §4.1.2.1, §10.15). Every later error goes back to
 * the registered redirect URI (§4.1.2.1) with `state` and `iss` (RFC 9207 §2). A valid request is
 * stored and the person is sent to sign in, then to the consent page, every time (no remembered
 * consent). Parameters may not repeat (§3.1).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SCOPES } from '../auth/index.ts';
import { errorPage, type PeopleService, SIGNIN_PATH, sessionCookie } from '../people/index.ts';
import { clientMetadata } from './clients.ts';
import type { OAuthErrorCode } from './errors.ts';
import { isCodeChallenge } from './pkce.ts';
import { matchRedirectUri } from './redirect-uris.ts';
import type { OAuthService } from './service.ts';
import { parseScope } from './settings.ts';

export const CONSENT_PATH = '/oauth/authorize/consent';
const MAX_STATE = 1024;

/** The client's redirect URI with the response parameters, `state` and `iss` (RFC 9207). */
export function redirectBack(
  redirectUri: string,
  params: Record<string, string>,
  state: string | null,
  issuer: string,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (state !== null) url.searchParams.set('state', state);
  url.searchParams.set('iss', issuer);
  return url.href;
}

export const consentUrl = (requestId: string): string =>
  `${CONSENT_PATH}?request=${encodeURIComponent(requestId)}`;
export const signInUrl = (requestId: string): string =>
  `${SIGNIN_PATH}?next=${encodeURIComponent(consentUrl(requestId))}`;

export function authorizeRoute(oauth: OAuthService, people: PeopleService) {
  const { issuer, resource } = oauth.settings;
  const cookie = sessionCookie(issuer);
  return (app: FastifyInstance): void => {
    app.get(
      '/oauth/authorize',
      { config: { auth: 'none' }, schema: { hide: true } },
      async (request, reply) => {
        const query = new URLSearchParams(request.url.split('?')[1] ?? '');
        const one = (name: string): string | undefined | null => {
          const all = query.getAll(name);
          return all.length === 0 ? undefined : all.length === 1 ? (all[0] ?? null) : null;
        };
        const clientId = one('client_id');
        const client = clientId ? await oauth.clients.find(clientId) : null;
        if (!client)
          return errorPage(
            reply,
            400,
            'Unknown application',
            'The application that sent you here is not registered.',
          );
        const asked = one('redirect_uri');
        const redirectUri = asked
          ? matchRedirectUri(clientMetadata(client).redirect_uris, asked) && asked
          : null;
        if (!redirectUri)
          return errorPage(
            reply,
            400,
            'Invalid redirect',
            'The application sent a redirect address it did not register.',
          );

        const rawState = one('state');
        const state = typeof rawState === 'string' && rawState.length <= MAX_STATE ? rawState : null;
        const back = (error: OAuthErrorCode, description: string): FastifyReply =>
          reply.redirect(
            redirectBack(redirectUri, { error, error_description: description }, state, issuer),
            302,
          );
        if (rawState === null || (rawState !== undefined && state === null))
          return back('invalid_request', `state must be sent once, at most ${MAX_STATE} characters.`);
        const repeated = [...new Set(query.keys())].find((name) => query.getAll(name).length > 1);
        if (repeated) return back('invalid_request', `${repeated} is repeated.`);

        const responseType = one('response_type');
        if (!responseType) return back('invalid_request', 'response_type is required.');
        if (responseType !== 'code')
          return back('unsupported_response_type', 'Only response_type=code is supported.');
        const challenge = one('code_challenge');
        if (one('code_challenge_method') !== 'S256' || !challenge || !isCodeChallenge(challenge))
          return back('invalid_request', 'PKCE is required: code_challenge with code_challenge_method=S256.');
        if (one('resource') !== resource) return back('invalid_target', `resource must be ${resource}.`);
        const registeredScope = clientMetadata(client).scope;
        const scopes = parseScope(one('scope') ?? registeredScope ?? SCOPES.join(' '));
        const allowed = registeredScope ? (parseScope(registeredScope) ?? []) : null;
        if (!scopes?.length || (allowed && !scopes.every((s) => allowed.includes(s))))
          return back('invalid_scope', 'The scope names a scope this server or this client does not have.');

        const id = await oauth.startRequest({
          clientId: client.id,
          redirectUri,
          state,
          codeChallenge: challenge,
          resource,
          scopes,
        });
        const session = await people.session(cookie.read(request.headers));
        return reply.redirect(session ? consentUrl(id) : signInUrl(id), 302);
      },
    );
  };
}
