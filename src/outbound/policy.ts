/**
 * What an outbound fetch may do (FetchPolicy), the one error it refuses with (FetchRefused), and
 * the default policy for image fetches (docs/configuration.md limits: 20 MB, 10 s).
 */

export interface FetchPolicy {
  /** PLATEN_ALLOW_PRIVATE_URLS: lets fetches reach private and loopback addresses. */
  allowPrivate: boolean;
  /** Largest body accepted; a bigger one (announced or streamed) is refused as 'too-large'. */
  maxBytes: number;
  /** Whole-fetch deadline: DNS, connect, headers and body of every redirect hop together. */
  timeoutMs: number;
  /** Redirects followed (each hop checked again); one more is refused as 'too-many-redirects'. */
  maxRedirects: number;
  allowedProtocols: ('https:' | 'http:')[];
  /**
   * Test seam: replaces DNS resolution (default: `node:dns` lookup of every address). Lets tests
   * map made-up host names to loopback without touching real DNS.
   */
  resolve?: (hostname: string) => Promise<string[]>;
  /**
   * Test seam, consulted only when allowPrivate is false: decides whether an address may be
   * contacted (default: `!isPrivateAddress(ip)`). Lets a test treat one loopback address as
   * "public" to exercise per-hop checks without any traffic leaving the machine.
   */
  isAllowedAddress?: (ip: string) => boolean;
}

export type FetchRefusalReason =
  | 'protocol'
  | 'private-address'
  | 'dns'
  | 'too-large'
  | 'timeout'
  | 'too-many-redirects'
  | 'http-status'
  | 'network';

/** An outbound fetch that was refused or failed; `reason` says which rule or failure. */
export class FetchRefused extends Error {
  readonly reason: FetchRefusalReason;
  /** The URL being fetched when it was refused (a redirect hop, possibly). */
  readonly url: string;

  constructor(reason: FetchRefusalReason, message: string, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FetchRefused';
    this.reason = reason;
    this.url = url;
  }
}

export const IMAGE_FETCH_MAX_BYTES = 20 * 1024 * 1024;
export const IMAGE_FETCH_TIMEOUT_MS = 10_000;

/**
 * Image fetches: https only, unless private URLs are allowed (local development and tests),
 * which also admits plain http.
 */
export function defaultImagePolicy(allowPrivate: boolean): FetchPolicy {
  return {
    allowPrivate,
    maxBytes: IMAGE_FETCH_MAX_BYTES,
    timeoutMs: IMAGE_FETCH_TIMEOUT_MS,
    maxRedirects: 5,
    allowedProtocols: allowPrivate ? ['https:', 'http:'] : ['https:'],
  };
}
