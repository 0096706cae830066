/**
 * Token buckets shared through Redis, so several service instances enforce one limit per key.
 * Each take is one EVALSHA of the script in script.ts (EVAL when Redis answers NOSCRIPT, e.g.
 * after a restart or SCRIPT FLUSH).
 *
 * Failure policy: FAIL OPEN TO LOCAL LIMITS. Rate limiting protects capacity; it must not turn a
 * Redis outage into a render outage, nor hang requests. Every command is bounded by
 * `commandTimeoutMs`; when one fails or times out the limiter warns once, then for
 * `degradedMs` answers from an in-process MemoryRateLimiter with the same limit (each instance then
 * admits up to the limit on its own), and then tries Redis again. Recovery is warned about too.
 */
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { assertCost, assertPerMinute, toDecision } from './bucket.ts';
import { MemoryRateLimiter } from './memory.ts';
import { parseTakeReply, TAKE_SCRIPT, TAKE_SCRIPT_SHA } from './script.ts';
import type { RateDecision, RateLimiter, RateLimitWarn } from './types.ts';

export interface RedisRateLimiterOptions {
  perMinute: number;
  /** `redis://` or `rediss://` URL (credentials in it are never logged). */
  redisUrl: string;
  /** Prepended to every key (default `platen:ratelimit:`). */
  keyPrefix?: string;
  /** Longest wait for Redis per command, connecting included (default 500 ms). */
  commandTimeoutMs?: number;
  /** How long to use the local fallback after a failure before trying Redis again (default 5 s). */
  degradedMs?: number;
  warn?: RateLimitWarn;
}

export const DEFAULT_KEY_PREFIX = 'platen:ratelimit:';

const defaultWarn: RateLimitWarn = (message) => process.emitWarning(message, 'RateLimitWarning');

export class RedisRateLimiter implements RateLimiter {
  readonly #capacity: number;
  readonly #prefix: string;
  readonly #degradedMs: number;
  readonly #warn: RateLimitWarn;
  readonly #redis: Redis;
  readonly #fallback: MemoryRateLimiter;
  /** `performance.now()` until which takes skip Redis; null while healthy. */
  #degradedUntil: number | null = null;

  constructor(opts: RedisRateLimiterOptions) {
    assertPerMinute(opts.perMinute);
    if (opts.perMinute === 0) throw new RangeError('perMinute 0 means no limiter; use createRateLimiter');
    this.#capacity = opts.perMinute;
    this.#prefix = opts.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.#degradedMs = opts.degradedMs ?? 5_000;
    this.#warn = opts.warn ?? defaultWarn;
    this.#fallback = new MemoryRateLimiter({ perMinute: opts.perMinute });
    const timeout = opts.commandTimeoutMs ?? 500;
    this.#redis = new Redis(opts.redisUrl, {
      commandTimeout: timeout,
      connectTimeout: Math.max(timeout, 1_000),
      // Commands queue while (re)connecting, bounded by commandTimeout; one retry, never twenty.
      maxRetriesPerRequest: 1,
      lazyConnect: false,
    });
    // Without a listener ioredis prints every connection error; the first failed take warns instead.
    this.#redis.on('error', () => {});
  }

  async take(key: string, cost = 1): Promise<RateDecision> {
    assertCost(cost);
    if (this.#degradedUntil !== null && performance.now() < this.#degradedUntil) {
      return this.#fallback.takeSync(key, cost);
    }
    try {
      const { allowed, tokens } = parseTakeReply(await this.#run(this.#prefix + key, cost));
      this.#recovered();
      return toDecision(this.#capacity, tokens, allowed, cost);
    } catch (error) {
      this.#degrade(error);
      return this.#fallback.takeSync(key, cost);
    }
  }

  async close(): Promise<void> {
    await this.#fallback.close();
    try {
      await this.#redis.quit();
    } catch {
      // Already closed or unreachable: nothing left to flush.
    }
    this.#redis.disconnect();
  }

  async #run(fullKey: string, cost: number): Promise<unknown> {
    const args = [1, fullKey, this.#capacity, cost] as const;
    try {
      return await this.#redis.evalsha(TAKE_SCRIPT_SHA, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.#redis.eval(TAKE_SCRIPT, ...args);
    }
  }

  #degrade(error: unknown): void {
    if (this.#degradedUntil === null) {
      this.#warn('Rate limiter cannot reach Redis; enforcing limits per instance until it is back', error);
    }
    this.#degradedUntil = performance.now() + this.#degradedMs;
  }

  #recovered(): void {
    if (this.#degradedUntil === null) return;
    this.#degradedUntil = null;
    this.#warn('Rate limiter reached Redis again; limits are shared across instances');
  }
}
