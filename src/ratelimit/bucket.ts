/**
 * Pure token-bucket arithmetic shared by every limiter (the Redis script mirrors `refill` and
 * `admit` line for line). Capacity equals the per-minute figure and refills continuously at
 * capacity/60 tokens a second, so an empty bucket is full again after exactly one minute, whatever
 * the limit. A full bucket is indistinguishable from no bucket, which lets both stores forget it.
 */
import type { RateDecision } from './types.ts';

/** An empty bucket refills completely in this time, for every capacity. */
export const FULL_REFILL_MS = 60_000;

/** Absorbs floating-point dust (0.9999999999 tokens is one token). */
const EPSILON = 1e-9;

export function assertPerMinute(perMinute: number): void {
  if (!Number.isSafeInteger(perMinute) || perMinute < 0) {
    throw new RangeError(`perMinute must be a non-negative integer, got ${perMinute}`);
  }
}

export function assertCost(cost: number): void {
  if (!Number.isSafeInteger(cost) || cost < 1) {
    throw new RangeError(`cost must be a positive integer, got ${cost}`);
  }
}

/** Tokens after `elapsedMs` of refill; a clock that went backwards refills nothing. */
export function refill(tokens: number, elapsedMs: number, capacity: number): number {
  return Math.min(capacity, tokens + (Math.max(0, elapsedMs) * capacity) / FULL_REFILL_MS);
}

export function admit(tokens: number, cost: number): { allowed: boolean; tokens: number } {
  if (tokens + EPSILON >= cost) return { allowed: true, tokens: Math.max(0, tokens - cost) };
  return { allowed: false, tokens };
}

export function isFull(tokens: number, capacity: number): boolean {
  return tokens >= capacity - EPSILON;
}

/** Seconds (real, not rounded) until `tokens` grows to `target`. */
function secondsUntil(tokens: number, target: number, capacity: number): number {
  return ((target - tokens) * FULL_REFILL_MS) / capacity / 1000;
}

/**
 * The decision reported for a bucket left holding `tokens` after a take of `cost`. A cost above the
 * capacity can never be admitted; its Retry-After is the time until the bucket is full, the best a
 * client can do.
 */
export function toDecision(capacity: number, tokens: number, allowed: boolean, cost: number): RateDecision {
  const untilFull = Math.max(0, Math.ceil(secondsUntil(tokens, capacity, capacity) - EPSILON));
  const needed = Math.min(cost, capacity);
  const retryAfterSeconds = allowed
    ? 0
    : Math.max(1, Math.ceil(secondsUntil(tokens, needed, capacity) - EPSILON));
  return {
    allowed,
    limit: capacity,
    remaining: Math.min(capacity, Math.floor(tokens + EPSILON)),
    resetSeconds: untilFull,
    retryAfterSeconds,
  };
}
