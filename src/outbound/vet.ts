/**
 * Vets one fetch target before any socket opens: the protocol is allowed, and every address the
 * host resolves to (or the literal IP, as the WHATWG URL parser normalised it) passes the address
 * rule. The result pins the address the request must connect to, so DNS cannot change between
 * the check and the connection (rebinding).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from './address.ts';
import { type FetchPolicy, FetchRefused } from './policy.ts';

export interface VettedTarget {
  url: URL;
  /** Host name without IPv6 brackets; kept for the Host header, SNI and certificate checks. */
  hostname: string;
  /** The vetted address the connection is pinned to. */
  address: string;
  family: 4 | 6;
}

export function parseUrl(raw: string | URL): URL {
  if (raw instanceof URL) return raw;
  try {
    return new URL(raw);
  } catch {
    throw new FetchRefused('protocol', 'Not a valid absolute URL.', String(raw).slice(0, 200));
  }
}

async function systemResolve(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

async function resolveHost(hostname: string, policy: FetchPolicy, href: string): Promise<string[]> {
  // A literal IP (after URL normalisation: 2130706433, 0x7f.1 and ::ffff:127.0.0.1 all arrive
  // here in canonical form) is checked as is; DNS never sees it.
  if (isIP(hostname)) return [hostname];
  let addresses: string[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(hostname);
  } catch (error) {
    throw new FetchRefused('dns', `Could not resolve ${hostname}.`, href, { cause: error });
  }
  if (addresses.length === 0 || addresses.some((a) => isIP(a) === 0)) {
    throw new FetchRefused('dns', `No usable address for ${hostname}.`, href);
  }
  return addresses;
}

export async function vetTarget(raw: string | URL, policy: FetchPolicy): Promise<VettedTarget> {
  const url = parseUrl(raw);
  const allowed: readonly string[] = policy.allowedProtocols;
  if (!allowed.includes(url.protocol)) {
    throw new FetchRefused('protocol', `The ${url.protocol} protocol is not allowed here.`, url.href);
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (hostname === '') throw new FetchRefused('protocol', 'The URL has no host.', url.href);

  const addresses = await resolveHost(hostname, policy, url.href);
  if (!policy.allowPrivate) {
    const isAllowed = policy.isAllowedAddress ?? ((ip: string) => !isPrivateAddress(ip));
    // Every answer must pass, not just the first: the OS may try the others on connect.
    if (!addresses.every(isAllowed)) {
      throw new FetchRefused(
        'private-address',
        `${hostname} points to a private, loopback or link-local address.`,
        url.href,
      );
    }
  }
  const address = addresses[0] ?? '';
  return { url, hostname, address, family: isIP(address) === 6 ? 6 : 4 };
}
