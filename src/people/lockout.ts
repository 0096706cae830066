/**
 * How failed sign-ins slow further attempts (docs/console.md, Sign-in limits). Three counters of
 * failures within the window, each with a threshold past which every attempt must wait a delay
 * that doubles with each further failure, up to a cap:
 * - the account from one address: what a guesser at one account meets; capped at the window, it
 *   holds back that address only, so a stranger who guesses at an operator's email slows down
 *   themselves, not the operator;
 * - the account from anywhere, at five times the threshold: a guesser with many addresses; capped
 *   at a minute, and skipped for a browser where the person signed in before (devices.ts), so a
 *   stranger cannot hold the person back on their own device;
 * - the address, across accounts: one address trying many accounts; capped at a minute, as a
 *   whole office behind one NAT address shares it (behind a proxy, PLATEN_TRUST_PROXY lets the
 *   forwarded address count instead). IPv6 addresses count by their /64, which one host holds.
 * Every attempt is counted before it is checked (people/service.ts), so parallel attempts see each
 * other; a refused attempt is then forgotten: waiting it out is all an attacker can do.
 */
import { isIPv6 } from 'node:net';

export interface Limit {
  kind: 'account-address' | 'account' | 'address';
  subject: string;
  threshold: number;
  capSeconds: number;
}

export interface LockoutPolicy {
  /**
   * The counters one attempt is checked against and, if it fails, counts towards; the first is the
   * account-and-address one. `trustedDevice`: without the account-wide one.
   */
  limits(email: string, address: string, trustedDevice: boolean): [Limit, ...Limit[]];
  /** The counter an operator sees as "locked until" for a person. */
  accountLimit(email: string): Limit;
}

/** Subjects as stored; every subject of an account starts with `accountPrefix` (unlock clears them). */
export const signInSubjects = {
  accountPrefix: (email: string) => `account:${email}|`,
  accountAddress: (email: string, address: string) => `account:${email}|${address}`,
  account: (email: string) => `account:${email}|*`,
  address: (address: string) => `address:${addressGroup(address)}`,
};

/**
 * The address as the limits count it: an IPv4 address as is (also when IPv4-mapped), an IPv6
 * address by its /64 (RFC 4291 §2.5.4: one subnet, which a single host may hold whole).
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export function lockoutPolicy(options: {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  lockoutWindowSeconds: number;
}): LockoutPolicy {
  const accountLimit = (email: string): Limit => ({
    kind: 'account',
    subject: signInSubjects.account(email),
    threshold: options.maxFailuresPerAccount * 5,
    capSeconds: 60,
  });
  return {
    limits: (email, address, trustedDevice) => [
      {
        kind: 'account-address',
        subject: signInSubjects.accountAddress(email, addressGroup(address)),
        threshold: options.maxFailuresPerAccount,
        capSeconds: options.lockoutWindowSeconds,
      },
      ...(trustedDevice ? [] : [accountLimit(email)]),
      {
        kind: 'address',
        subject: signInSubjects.address(address),
        threshold: options.maxFailuresPerAddress,
        capSeconds: 60,
      },
    ],
    accountLimit,
  };
}

/** The delay after `count` failures: none below the threshold, then 1 s, 2 s, 4 s… up to the cap. */
export function delaySeconds(limit: Limit, count: number): number {
  if (count < limit.threshold) return 0;
  return Math.min(limit.capSeconds, 2 ** Math.min(30, count - limit.threshold));
}

/** Seconds left before the next attempt may be made (0: now), counted from the latest failure. */
export function refusal(limit: Limit, count: number, newest: string | null, now: number): number {
  const delay = delaySeconds(limit, count);
  if (delay === 0 || newest === null) return 0;
  const free = Date.parse(newest) + delay * 1000;
  return free > now ? Math.ceil((free - now) / 1000) : 0;
}
