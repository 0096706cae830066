/**
 * When to try a failed delivery again: exponential backoff with full jitter (a random delay up to
 * base·2^(attempt−1), capped, never under a floor), so receivers coming back from an outage are
 * not hit by every sender at once. A message is given up ("failed") only by a failure at least
 * `windowMs` (24 hours) after its event: the schedule is bounded by time, not by a count.
 */

export interface BackoffPolicy {
  /** Ceiling of the first retry's delay; doubles each attempt. */
  baseMs: number;
  /** Largest ceiling. */
  capMs: number;
  /** Smallest delay, whatever the jitter draws. */
  floorMs: number;
  /** Retry until a failure at least this long after the event. */
  windowMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  baseMs: 5_000,
  capMs: 4 * 60 * 60 * 1000,
  floorMs: 1_000,
  windowMs: 24 * 60 * 60 * 1000,
};

export type RetryDecision = { kind: 'retry'; at: Date } | { kind: 'failed' };

/**
 * After attempt number `attempt` (1-based) failed at `now`, for an event that happened at
 * `createdAt`: when to try again, or give up.
 */
export function afterFailure(
  attempt: number,
  createdAt: Date,
  now: Date,
  random: () => number = Math.random,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
): RetryDecision {
  if (now.getTime() - createdAt.getTime() >= policy.windowMs) return { kind: 'failed' };
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt - 1, 30));
  const delay = Math.max(policy.floorMs, Math.floor(random() * ceiling));
  return { kind: 'retry', at: new Date(now.getTime() + delay) };
}
