/**
 * The one conformance suite every RateLimiter must pass (memory and Redis run the same cases, on
 * real time: small limits and short real waits). A harness opens limiter instances over one shared
 * backing store, so the suite can also prove that two instances share a bucket.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { RateLimiter } from './types.ts';

export interface RateLimiterHarness {
  /** A new limiter; every limiter a harness opens sees the same buckets when `shared` is true. */
  open(perMinute: number): Promise<RateLimiter>;
  /** Whether separate instances share buckets (true for Redis, false for memory). */
  shared: boolean;
  /** Closes what the harness set up and removes what it stored. */
  dispose(): Promise<void>;
}

export interface DescribeOptions {
  /** Why the suite cannot run here; it is then skipped with the reason in its name. */
  skipReason?: string;
}

export function describeRateLimiter(
  name: string,
  setup: () => Promise<RateLimiterHarness>,
  options: DescribeOptions = {},
): void {
  const title = options.skipReason
    ? `RateLimiter conformance: ${name} (skipped: ${options.skipReason})`
    : `RateLimiter conformance: ${name}`;
  describe.skipIf(options.skipReason !== undefined)(title, () => {
    // Set up lazily inside each case: a harness that cannot start fails the cases, never skips them.
    let started: Promise<RateLimiterHarness> | undefined;
    const opened: RateLimiter[] = [];
    const harness = () => {
      started ??= setup();
      return started;
    };
    const open = async (perMinute: number) => {
      const limiter = await (await harness()).open(perMinute);
      opened.push(limiter);
      return limiter;
    };
    /** A fresh key per case keeps cases independent on a shared store. */
    const freshKey = () => `key_${randomBytes(6).toString('hex')}`;

    afterAll(async () => {
      for (const limiter of opened) await limiter.close();
      if (started) await (await started).dispose();
    });

    it('reports a fresh bucket as full minus the take', async () => {
      const limiter = await open(60);
      const d = await limiter.take(freshKey());
      expect(d).toEqual({ allowed: true, limit: 60, remaining: 59, resetSeconds: 1, retryAfterSeconds: 0 });
    });

    it('admits up to the capacity, then refuses', async () => {
      const limiter = await open(5);
      const key = freshKey();
      for (let i = 0; i < 5; i++) {
        const d = await limiter.take(key);
        expect(d).toMatchObject({ allowed: true, limit: 5, remaining: 4 - i, retryAfterSeconds: 0 });
      }
      const refused = await limiter.take(key);
      expect(refused).toMatchObject({ allowed: false, limit: 5, remaining: 0 });
      // One token every 12 s; the bucket is full again a minute after it was drained.
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(11);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(12);
      expect(refused.resetSeconds).toBeGreaterThanOrEqual(55);
      expect(refused.resetSeconds).toBeLessThanOrEqual(60);
    });

    it('gives a Retry-After that is the wait for the missing tokens', async () => {
      const limiter = await open(2); // one token every 30 s
      const key = freshKey();
      expect((await limiter.take(key, 2)).allowed).toBe(true);
      const one = await limiter.take(key);
      expect(one.allowed).toBe(false);
      expect(one.retryAfterSeconds).toBeGreaterThanOrEqual(29);
      expect(one.retryAfterSeconds).toBeLessThanOrEqual(30);
      const two = await limiter.take(key, 2);
      expect(two.retryAfterSeconds).toBeGreaterThanOrEqual(59);
      expect(two.retryAfterSeconds).toBeLessThanOrEqual(60);
      // More than the capacity can never pass; the best advice is "when full".
      const tooMuch = await limiter.take(key, 3);
      expect(tooMuch.allowed).toBe(false);
      expect(tooMuch.retryAfterSeconds).toBeLessThanOrEqual(60);
    });

    it('refills continuously over time', async () => {
      const limiter = await open(600); // ten tokens a second
      const key = freshKey();
      expect(await limiter.take(key, 600)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await limiter.take(key)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
      await sleep(450);
      const later = await limiter.take(key, 3);
      expect(later.allowed).toBe(true);
      // About 4.5 tokens had refilled: neither none nor a burst.
      expect(later.remaining).toBeGreaterThanOrEqual(1);
      expect(later.remaining).toBeLessThanOrEqual(3);
      expect((await limiter.take(key, 600)).allowed).toBe(false);
    });

    it('takes nothing from a refused request', async () => {
      const limiter = await open(60); // one token a second
      const key = freshKey();
      expect((await limiter.take(key, 60)).allowed).toBe(true);
      for (let i = 0; i < 5; i++) expect((await limiter.take(key)).allowed).toBe(false);
      await sleep(1_150);
      expect((await limiter.take(key)).allowed).toBe(true);
    });

    it('keeps keys independent', async () => {
      const limiter = await open(2);
      const [a, b] = [freshKey(), freshKey()];
      expect((await limiter.take(a, 2)).allowed).toBe(true);
      expect((await limiter.take(a)).allowed).toBe(false);
      expect(await limiter.take(b)).toMatchObject({ allowed: true, remaining: 1 });
    });

    it('never over-admits concurrent takes', async () => {
      const limiter = await open(10);
      const key = freshKey();
      const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.take(key)));
      const admitted = decisions.filter((d) => d.allowed);
      expect(admitted).toHaveLength(10);
      // Each admitted take saw a different bucket state: the takes were serialised, not interleaved.
      expect(admitted.map((d) => d.remaining).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('rejects a cost that is not a positive integer', async () => {
      const limiter = await open(10);
      await expect(limiter.take(freshKey(), 0)).rejects.toThrow(RangeError);
      await expect(limiter.take(freshKey(), 1.5)).rejects.toThrow(RangeError);
    });

    it('shares buckets between instances when the store is shared', async () => {
      const { shared } = await harness();
      const [a, b] = [await open(4), await open(4)];
      const key = freshKey();
      expect((await a.take(key, 2)).remaining).toBe(2);
      const fromB = await b.take(key);
      expect(fromB.remaining).toBe(shared ? 1 : 3);
      if (!shared) return;
      expect((await b.take(key)).remaining).toBe(0);
      expect((await a.take(key)).allowed).toBe(false);
    });
  });
}
