/**
 * The Redis side of the token bucket: one Lua script, so that read-refill-take-write is a single
 * atomic step however many service instances call it. It mirrors `refill` and `admit` in
 * bucket.ts. The clock is Redis's own `TIME`, so instances with skewed clocks still agree (Redis 7
 * replicates a script's effects, not the script, so a non-deterministic `TIME` is allowed).
 *
 * KEYS[1]: the bucket hash {t = tokens, ts = last change in ms}. ARGV[1]: capacity. ARGV[2]: cost.
 * Returns {allowed (0|1), tokens after (a string: Lua numbers in replies are truncated to integers)}.
 * A full bucket is deleted and a drained one expires when it would be full again, so an idle key
 * never outlives one minute and an absent key reads as full.
 */
import { createHash } from 'node:crypto';

export const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 't', 'ts')
local tokens = capacity
if state[1] and state[2] then
  local elapsed = math.max(0, now - tonumber(state[2]))
  tokens = math.min(capacity, tonumber(state[1]) + elapsed * capacity / 60000)
end
if tokens + 1e-9 < cost then
  return {0, string.format('%.17g', tokens)}
end
tokens = math.max(0, tokens - cost)
if tokens >= capacity - 1e-9 then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'ts', string.format('%.17g', now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * 60000 / capacity) + 1000)
end
return {1, string.format('%.17g', tokens)}
`;

/** The digest EVALSHA addresses the script by. */
export const TAKE_SCRIPT_SHA = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

/** Parses the script's reply; anything else means the wrong script or server, so throw. */
export function parseTakeReply(reply: unknown): { allowed: boolean; tokens: number } {
  if (Array.isArray(reply) && reply.length === 2) {
    const [allowed, tokens] = reply as unknown[];
    const parsed = typeof tokens === 'string' ? Number(tokens) : Number.NaN;
    if ((allowed === 0 || allowed === 1) && Number.isFinite(parsed))
      return { allowed: allowed === 1, tokens: parsed };
  }
  throw new Error('Unexpected reply from the rate limit script');
}
