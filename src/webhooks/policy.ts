/**
 * The outbound rules for webhook targets, one FetchPolicy for checking a URL when it is set and for
 * every delivery: https only (http too, and private addresses, with PLATEN_ALLOW_PRIVATE_URLS), a
 * deadline per attempt, redirects not followed, the receiver's answer read up to a bound.
 */
import type { FetchPolicy } from '../outbound/index.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** A receiver's answer is read up to this; a longer one counts as a failed attempt. */
export const WEBHOOK_MAX_RESPONSE_BYTES = 1024 * 1024;

export function webhookPolicy(allowPrivate: boolean, timeoutMs = WEBHOOK_TIMEOUT_MS): FetchPolicy {
  return {
    allowPrivate,
    maxBytes: WEBHOOK_MAX_RESPONSE_BYTES,
    timeoutMs,
    // A redirect is a failed attempt: a POST is not replayed to wherever the receiver points.
    maxRedirects: 0,
    allowedProtocols: allowPrivate ? ['https:', 'http:'] : ['https:'],
  };
}
