/**
 * `POST /oauth/token` (RFC 6749 §3.2): form-encoded (Appendix B), the client authenticated by its
 * registered method (§2.3.1, §3.2.1), grants `authorization_code` (§4.1.3) and `refresh_token` (§6)
 * (see grants.ts). 200 `{access_token, token_type, expires_in, refresh_token?, scope}` (§5.1) or
 * §5.2 errors: 400, or 401 `invalid_client` (with `WWW-Authenticate: Basic` when the client tried
 * Basic). Every answer is `Cache-Control: no-store`.
 * `POST /oauth/revoke` (RFC 7009 §2.1): the same client authentication; 200 whether or not the
 * token was known (§2.2); a refresh token revokes its family, an access token itself.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientRecord } from '../store/oauth.ts';
import { failure, sendOAuthError } from './errors.ts';
import type { OAuthService } from './service.ts';

const isForm = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');

export function tokenRoutes(oauth: OAuthService) {
  /**
   * The authenticated client, or null once the error answer is sent. Never the reply itself: a
   * FastifyReply is thenable, so an async function returning it would resolve through `reply.then`
   * (to undefined, the answer sent) rather than to the reply.
   */
  async function client(request: FastifyRequest, reply: FastifyReply): Promise<ClientRecord | null> {
    if (!isForm(request) || typeof request.body !== 'object' || request.body === null) {
      sendOAuthError(reply, 400, failure('invalid_request', 'Send a form-encoded body.'));
      return null;
    }
    const outcome = await oauth.clients.authenticate(
      request.headers,
      request.body as Record<string, unknown>,
    );
    if (outcome.ok) return outcome.client;
    const challenge: Record<string, string> =
      outcome.status === 401 && outcome.challenge
        ? { 'www-authenticate': 'Basic realm="platen", charset="UTF-8"' }
        : {};
    sendOAuthError(reply, outcome.status, outcome.problem, challenge);
    return null;
  }

  return (app: FastifyInstance): void => {
    const options = { config: { auth: 'none' as const }, schema: { hide: true }, bodyLimit: 16_384 };

    app.post('/oauth/token', options, async (request, reply) => {
      const authenticated = await client(request, reply);
      if (!authenticated) return reply;
      const params = request.body as Record<string, unknown>;
      const grantType = params.grant_type;
      const outcome =
        grantType === 'authorization_code'
          ? await oauth.grants.authorizationCode(authenticated, params)
          : grantType === 'refresh_token'
            ? await oauth.grants.refreshToken(authenticated, params)
            : null;
      if (!outcome) {
        const problem =
          typeof grantType === 'string'
            ? failure('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.')
            : failure('invalid_request', 'grant_type is required, once.');
        return sendOAuthError(reply, 400, problem);
      }
      if (!outcome.ok) return sendOAuthError(reply, 400, outcome.problem);
      return reply
        .code(200)
        .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
        .send(outcome.tokens);
    });

    app.post('/oauth/revoke', options, async (request, reply) => {
      const authenticated = await client(request, reply);
      if (!authenticated) return reply;
      const token = (request.body as Record<string, unknown>).token;
      if (typeof token !== 'string' || !token)
        return sendOAuthError(reply, 400, failure('invalid_request', 'token is required, once.'));
      await oauth.revoke(authenticated, token);
      return reply.code(200).header('cache-control', 'no-store').send();
    });
  };
}
