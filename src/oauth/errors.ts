/**
 * OAuth error answers in RFC form: RFC 6749 §5.2 (token, and §4.1.2.1 codes for redirects),
 * RFC 7591 §3.2.2 (registration), RFC 7009 §2.2.1 (revocation), RFC 8707 §2 (`invalid_target`).
 * JSON `{error, error_description}` with `Cache-Control: no-store`; an error the HTTP layer raises
 * inside the OAuth endpoints (a body that is not JSON or not a form, too large) answers the same way.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type';

export interface OAuthFailure {
  error: OAuthErrorCode;
  description: string;
}

export const failure = (error: OAuthErrorCode, description: string): OAuthFailure => ({ error, description });

export function sendOAuthError(
  reply: FastifyReply,
  status: number,
  problem: OAuthFailure,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache', ...headers })
    .send({ error: problem.error, error_description: problem.description });
}

/** Parser and framework errors in an OAuth plugin answer RFC-shaped, never the API envelope. */
export function installOAuthErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'OAuth endpoint failed');
      return sendOAuthError(reply, 500, failure('server_error', 'An internal error occurred.'));
    }
    // RFC 7591 §3.2.2 defines no invalid_request: a registration body that cannot be read is bad metadata.
    const code = request.url.startsWith('/oauth/register') ? 'invalid_client_metadata' : 'invalid_request';
    return sendOAuthError(reply, status === 413 ? 413 : 400, failure(code, error.message));
  });
}
