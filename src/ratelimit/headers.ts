/**
 * `RateLimit-*` response headers, following draft-ietf-httpapi-ratelimit-headers-06 (the last draft
 * with separate Limit/Remaining/Reset fields), plus `Retry-After` (RFC 9110 §10.2.3) on refusals.
 *
 * `RateLimit-Reset` is the draft's "number of seconds until the quota resets", i.e. until the
 * remaining quota is restored to `RateLimit-Limit`. For a continuously refilling token bucket that
 * is the time until the bucket is full again (0 when it is full), not the time until the next
 * token: the time until the next admissible request is what `Retry-After` says on a 429.
 */
import type { RateDecision } from './types.ts';

/** The policy window in seconds: the limit is a per-minute figure. */
const WINDOW_SECONDS = 60;

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSeconds),
    'RateLimit-Policy': `${d.limit};w=${WINDOW_SECONDS}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil(d.retryAfterSeconds)));
  return headers;
}
