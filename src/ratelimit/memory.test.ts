/**
 * The memory limiter: the conformance suite on real time, then what only it has (an injectable
 * clock for exact refill arithmetic, and bounded memory).
 */
import { describe, expect, it } from 'vitest';
import { describeRateLimiter } from './conformance.ts';
import { MemoryRateLimiter } from './memory.ts';

describeRateLimiter('memory', async () => ({
  open: async (perMinute) => new MemoryRateLimiter({ perMinute }),
  shared: false,
  dispose: async () => {},
}));

/** A clock the test moves by hand. */
function manualClock() {
  let now = 1_000;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('MemoryRateLimiter', () => {
  it('refills at perMinute/60 tokens a second, capped at the capacity', async () => {
    const clock = manualClock();
    const limiter = new MemoryRateLimiter({ perMinute: 60, now: clock.now });
    expect(await limiter.take('k', 60)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 });
    clock.advance(500);
    expect(await limiter.take('k')).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    clock.advance(500);
    expect(await limiter.take('k')).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 });
    clock.advance(2_500);
    expect(await limiter.take('k')).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 59 });
    clock.advance(10 * 60_000);
    expect(await limiter.take('k')).toMatchObject({ allowed: true, remaining: 59, resetSeconds: 1 });
  });

  it('rounds Retry-After up to whole seconds for fractional refill rates', async () => {
    const clock = manualClock();
    const limiter = new MemoryRateLimiter({ perMinute: 7, now: clock.now }); // one token per 8.57 s
    await limiter.take('k', 7);
    expect((await limiter.take('k')).retryAfterSeconds).toBe(9);
    clock.advance(8_000);
    expect((await limiter.take('k')).retryAfterSeconds).toBe(1);
    clock.advance(600);
    expect((await limiter.take('k')).allowed).toBe(true);
  });

  it('neither refills nor breaks when the clock goes backwards', async () => {
    const clock = manualClock();
    const limiter = new MemoryRateLimiter({ perMinute: 2, now: clock.now });
    await limiter.take('k', 2);
    clock.advance(-30_000);
    expect(await limiter.take('k')).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('forgets buckets that are full again', async () => {
    const clock = manualClock();
    const limiter = new MemoryRateLimiter({ perMinute: 10, now: clock.now });
    await limiter.take('a');
    expect(limiter.size).toBe(1);
    clock.advance(60_000);
    await limiter.take('b');
    expect(limiter.size).toBe(1); // 'a' idled for a full refill period and was dropped
    clock.advance(6_000);
    await limiter.take('b'); // refilled to full, so taking one leaves it partial: still one bucket
    expect(limiter.size).toBe(1);
  });

  it('keeps at most maxKeys buckets, evicting the least recently used', async () => {
    const clock = manualClock();
    const limiter = new MemoryRateLimiter({ perMinute: 2, maxKeys: 3, now: clock.now });
    for (const key of ['a', 'b', 'c']) await limiter.take(key, 2);
    await limiter.take('a'); // refused, but touching 'a' makes 'b' the least recently used
    await limiter.take('d', 2);
    expect(limiter.size).toBe(3);
    expect((await limiter.take('a')).allowed).toBe(false);
    expect((await limiter.take('c')).allowed).toBe(false);
    expect((await limiter.take('b')).allowed).toBe(true); // evicted, so it starts full again
  });

  it('holds up under many distinct keys', async () => {
    const limiter = new MemoryRateLimiter({ perMinute: 5, maxKeys: 1_000 });
    for (let i = 0; i < 20_000; i++) limiter.takeSync(`key-${i}`);
    expect(limiter.size).toBe(1_000);
  });

  it('refuses a limit of 0 or one that is not a non-negative integer', () => {
    for (const perMinute of [0, -1, 1.5, Number.NaN]) {
      expect(() => new MemoryRateLimiter({ perMinute })).toThrow(RangeError);
    }
  });
});
