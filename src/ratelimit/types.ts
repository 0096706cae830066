/**
 * The rate limiter's public shapes: one decision per `take`, and the interface the memory and Redis
 * limiters both implement (and the conformance suite checks).
 */

/** The outcome of one `take`, everything the HTTP layer needs for 429s and `RateLimit-*` headers. */
export interface RateDecision {
  /** Whether the request may proceed; when true its cost has been taken from the bucket. */
  allowed: boolean;
  /** Bucket capacity, which is also the per-minute figure. */
  limit: number;
  /** Whole tokens left after this call (0..limit). */
  remaining: number;
  /** Seconds until the bucket is full again (0 when it is full): the draft's "quota resets". */
  resetSeconds: number;
  /** Seconds until this request's cost would be admitted: 0 when allowed, at least 1 when not. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Takes `cost` tokens (a positive integer, default 1) from `key`'s bucket if it holds enough. */
  take(key: string, cost?: number): Promise<RateDecision>;
  /** Releases timers and connections; the limiter must not be used afterwards. */
  close(): Promise<void>;
}

/** Told when a shared limiter degrades or recovers; the service passes its logger's `warn`. */
export type RateLimitWarn = (message: string, error?: unknown) => void;
