/**
 * Classifies IP addresses for the outbound fetch guard: anything that is not plainly a public
 * unicast address counts as private (loopback, RFC 1918, link-local and cloud metadata, CGNAT,
 * documentation, multicast, reserved). IPv6 is default-deny outside global unicast 2000::/3, and
 * IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4) are judged by that IPv4 address.
 * Unparseable input counts as private: the guard fails closed.
 */
import { isIP } from 'node:net';

type Cidr4 = readonly [base: string, prefix: number];

/** IANA special-purpose IPv4 blocks (RFC 6890 and successors) that must never be fetched. */
const PRIVATE_V4: readonly Cidr4[] = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT shared space
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
];

/** Dotted quad to an unsigned 32-bit number; null unless exactly four decimal octets. */
function parseIPv4(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

const V4_RANGES = PRIVATE_V4.map(([base, prefix]) => {
  const start = parseIPv4(base) ?? 0;
  return { start, end: start + 2 ** (32 - prefix) - 1 };
});

function isPrivateV4(value: number): boolean {
  return V4_RANGES.some(({ start, end }) => value >= start && value <= end);
}

/** IPv6 text (zone id allowed, embedded dotted quad allowed) to eight 16-bit groups. */
export function parseIPv6(ip: string): number[] | null {
  const text = ip.replace(/%.*$/, '').toLowerCase();
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  const parts = text.split(':');
  for (const [index, part] of parts.entries()) {
    if (index === parts.length - 1 && part.includes('.')) {
      const v4 = parseIPv4(part);
      if (v4 === null) return null;
      groups.push(Math.floor(v4 / 65536), v4 % 65536);
    } else if (/^[0-9a-f]{1,4}$/.test(part)) {
      groups.push(Number.parseInt(part, 16));
    } else {
      return null;
    }
  }
  return groups;
}

const v4From = (high: number, low: number) => high * 65536 + low;

function isPrivateV6(g: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated) reach the IPv4 address itself.
  if (firstFiveZero && g5 === 0xffff) return isPrivateV4(v4From(g6, g7));
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) {
    return isPrivateV4(v4From(g6, g7));
  }
  // 64:ff9b::/96 NAT64: a NAT64 gateway forwards to the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isPrivateV4(v4From(g6, g7));
  }
  // Only global unicast 2000::/3 may be public; everything else (::, ::1, fc00::/7, fe80::/10,
  // fec0::/10, ff00::/8, 64:ff9b:1::/48, 100::/64, IPv4-compatible ::a.b.c.d) is refused.
  if ((g0 & 0xe000) !== 0x2000) return true;
  if (g0 === 0x2001 && g1 < 0x200) return true; // 2001::/23 IETF assignments, incl. Teredo 2001::/32
  if (g0 === 0x2001 && g1 === 0xdb8) return true; // documentation
  if ((g0 & 0xfff0) === 0x3ff0) return true; // 3fff::/20 documentation
  if (g0 === 0x2002) return isPrivateV4(v4From(g1, g2)); // 6to4 embeds the IPv4 address
  return false;
}

/** True unless `ip` is an IPv4 or IPv6 address that is plainly public unicast. */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const version = isIP(bare.replace(/%.*$/, ''));
  if (version === 4) {
    const value = parseIPv4(bare);
    return value === null || isPrivateV4(value);
  }
  if (version === 6) {
    const groups = parseIPv6(bare);
    return groups === null || isPrivateV6(groups);
  }
  return true;
}
