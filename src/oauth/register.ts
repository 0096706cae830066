/**
 * `POST /oauth/register`: dynamic client registration (RFC 7591 §3.1 request, §3.2.1 201 answer
 * echoing the registered metadata with `client_id` and `client_id_issued_at`, plus `client_secret`
 * and `client_secret_expires_at: 0` for confidential clients; §3.2.2 400 errors). JSON body. Open
 * registration, bounded per client address and hour (429 `temporarily_unavailable`).
 */
import type { FastifyInstance } from 'fastify';
import { sendOAuthError } from './errors.ts';
import type { OAuthService } from './service.ts';

export function registerRoute(oauth: OAuthService) {
  return (app: FastifyInstance): void => {
    app.post(
      '/oauth/register',
      { config: { auth: 'none' }, schema: { hide: true }, bodyLimit: 65_536 },
      async (request, reply) => {
        const outcome = await oauth.clients.register(request.body, request.ip);
        if (!outcome.ok)
          return sendOAuthError(
            reply,
            outcome.status,
            outcome.problem,
            outcome.status === 429 ? { 'retry-after': '3600' } : {},
          );
        const { client, secret } = outcome.registered;
        return reply
          .code(201)
          .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
          .send(secret ? { ...client, client_secret: secret, client_secret_expires_at: 0 } : client);
      },
    );
  };
}
