import { describe, expect, it } from 'vitest';
import { addressGroup, delaySeconds, lockoutPolicy, refusal } from './lockout.ts';

describe('sign-in limits', () => {
  const policy = lockoutPolicy({
    maxFailuresPerAccount: 10,
    maxFailuresPerAddress: 50,
    lockoutWindowSeconds: 900,
  });

  it('doubles the delay past the threshold, up to the cap', () => {
    const [pair] = policy.limits('a@example.com', '192.0.2.1', false);
    expect([9, 10, 11, 12, 19, 20, 40].map((n) => delaySeconds(pair, n))).toEqual([
      0, 1, 2, 4, 512, 900, 900,
    ]);
    const now = Date.parse('2026-01-01T00:00:10Z');
    expect(refusal(pair, 11, '2026-01-01T00:00:09Z', now)).toBe(1);
    expect(refusal(pair, 11, '2026-01-01T00:00:07Z', now)).toBe(0);
  });

  it('leaves the account-wide limit out for a trusted device', () => {
    expect(policy.limits('a@example.com', '192.0.2.1', false).map((l) => l.kind)).toEqual([
      'account-address',
      'account',
      'address',
    ]);
    expect(policy.limits('a@example.com', '192.0.2.1', true).map((l) => l.kind)).toEqual([
      'account-address',
      'address',
    ]);
  });

  it('counts IPv6 addresses by their /64 and IPv4-mapped ones as IPv4', () => {
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressGroup('192.0.2.7')).toBe('192.0.2.7');
    expect(policy.limits('a@example.com', '2001:db8:1:2::5', false)[0].subject).toBe(
      policy.limits('a@example.com', '2001:db8:1:2::6', false)[0].subject,
    );
  });
});
