/**
 * In-process token buckets: the default limiter, and the Redis limiter's fallback while Redis is
 * unreachable. Memory stays bounded two ways: a bucket that is full (or untouched for a minute,
 * which makes it full) is dropped, because a missing bucket means a full one; and at most `maxKeys`
 * buckets are kept, least recently used evicted first. Evicting a partly drained bucket forgives
 * its debt, a bounded over-admission that only a flood of distinct keys can cause.
 */
import { performance } from 'node:perf_hooks';
import { admit, assertCost, assertPerMinute, FULL_REFILL_MS, isFull, refill, toDecision } from './bucket.ts';
import type { RateDecision, RateLimiter } from './types.ts';

export interface MemoryRateLimiterOptions {
  perMinute: number;
  /** Most buckets kept at once (default 100 000). */
  maxKeys?: number;
  /** Milliseconds from any origin; monotonic by default so wall-clock jumps neither refill nor drain. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  /** `now()` at the last change; also the Map's order, oldest first. */
  at: number;
}

export const DEFAULT_MAX_KEYS = 100_000;

export class MemoryRateLimiter implements RateLimiter {
  readonly #capacity: number;
  readonly #maxKeys: number;
  readonly #now: () => number;
  /** Insertion order is recency order: every take re-inserts its key at the end. */
  readonly #buckets = new Map<string, Bucket>();

  constructor(opts: MemoryRateLimiterOptions) {
    assertPerMinute(opts.perMinute);
    if (opts.perMinute === 0) throw new RangeError('perMinute 0 means no limiter; use createRateLimiter');
    this.#capacity = opts.perMinute;
    this.#maxKeys = Math.max(1, opts.maxKeys ?? DEFAULT_MAX_KEYS);
    this.#now = opts.now ?? (() => performance.now());
  }

  /** Buckets currently held (full buckets are never held). */
  get size(): number {
    return this.#buckets.size;
  }

  take(key: string, cost = 1): Promise<RateDecision> {
    try {
      return Promise.resolve(this.takeSync(key, cost));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Synchronous core: a take is atomic simply because nothing can interleave with it. */
  takeSync(key: string, cost = 1): RateDecision {
    assertCost(cost);
    const now = this.#now();
    this.#dropIdle(now);
    const previous = this.#buckets.get(key);
    const available = previous ? refill(previous.tokens, now - previous.at, this.#capacity) : this.#capacity;
    const result = admit(available, cost);
    this.#buckets.delete(key);
    if (!isFull(result.tokens, this.#capacity)) {
      this.#buckets.set(key, { tokens: result.tokens, at: now });
      this.#evictOverflow();
    }
    return toDecision(this.#capacity, result.tokens, result.allowed, cost);
  }

  async close(): Promise<void> {
    this.#buckets.clear();
  }

  /** Buckets untouched for a full refill period are full: forget them, oldest first. */
  #dropIdle(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.at < FULL_REFILL_MS) return;
      this.#buckets.delete(key);
    }
  }

  #evictOverflow(): void {
    for (const key of this.#buckets.keys()) {
      if (this.#buckets.size <= this.#maxKeys) return;
      this.#buckets.delete(key);
    }
  }
}
