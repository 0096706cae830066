/**
 * The render rate limiter (`PLATEN_RENDER_RATE_LIMIT` a minute per API key or embed session):
 * `createRateLimiter` picks Redis when a URL is given, memory otherwise, and no limiter at all for
 * 0. The HTTP layer calls `take` once per render request and sends `rateLimitHeaders` on every
 * render response, answering 429 `RATE_LIMITED` when the decision is not `allowed`.
 */
import { assertPerMinute } from './bucket.ts';
import { MemoryRateLimiter } from './memory.ts';
import type { RateLimiter, RateLimitWarn } from './types.ts';

export { rateLimitHeaders } from './headers.ts';
export { MemoryRateLimiter, type MemoryRateLimiterOptions } from './memory.ts';
// Types only: redis.ts (and ioredis) is imported by createRateLimiter when a Redis URL is given.
export type { RedisRateLimiter, RedisRateLimiterOptions } from './redis.ts';
export type { RateDecision, RateLimiter, RateLimitWarn } from './types.ts';

export interface CreateRateLimiterOptions {
  perMinute: number;
  redisUrl?: string;
  keyPrefix?: string;
  /** Where degraded/recovered notices go (the service passes its logger). */
  warn?: RateLimitWarn;
}

/** Null when `perMinute` is 0: the limit is off and callers skip limiting and headers alike. */
export async function createRateLimiter(opts: CreateRateLimiterOptions): Promise<RateLimiter | null> {
  assertPerMinute(opts.perMinute);
  if (opts.perMinute === 0) return null;
  if (opts.redisUrl) {
    const { perMinute, redisUrl, keyPrefix, warn } = opts;
    // Imported only with a Redis URL: the in-memory default never loads ioredis (docs/performance.md).
    const { RedisRateLimiter } = await import('./redis.ts');
    return new RedisRateLimiter({ perMinute, redisUrl, keyPrefix, warn });
  }
  return new MemoryRateLimiter({ perMinute: opts.perMinute });
}
