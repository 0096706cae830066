/**
 * Signed render URLs: the canonical request and its HMAC-SHA256. The canonical request is the path,
 * `?`, and the query's `name=value` pairs exactly as they appear in the URL (still percent-encoded),
 * sorted, without `sig`: so changing any byte of a name or value changes what is signed, while the
 * order of the parameters does not matter. `sig` is the hex HMAC of that string with a workspace's
 * URL-signing secret. `signRenderUrl` in @platen/client (clients/typescript) and `sign_render_url` in the
 * Python client (clients/python) sign the same canonical request for customers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedQuery {
  /** The string the signature covers. */
  canonical: string;
  /** The `sig` parameter (raw), or null when absent. */
  signature: string | null;
  /** Every parameter but `sig`, decoded, in URL order (a name may repeat). */
  params: Array<[string, string]>;
}

function decode(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** Splits `url` (path and query, as requested); null when a parameter is not valid percent-encoding. */
export function parseSignedUrl(url: string): SignedQuery | null {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const query = mark < 0 ? '' : url.slice(mark + 1);
  const raw: Array<[string, string]> = [];
  let signature: string | null = null;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (name === 'sig') signature = value;
    else raw.push([name, value]);
  }
  const params: Array<[string, string]> = [];
  for (const [name, value] of raw) {
    const decodedName = decode(name);
    const decodedValue = decode(value);
    if (decodedName === null || decodedValue === null) return null;
    params.push([decodedName, decodedValue]);
  }
  const sorted = raw.map(([name, value]) => `${name}=${value}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { canonical: `${path}?${sorted.join('&')}`, signature, params };
}

export function signCanonical(canonical: string, secret: string): string {
  return createHmac('sha256', secret).update(canonical).digest('hex');
}

/** Whether `signature` is the HMAC of `canonical` with `secret` (constant time). */
export function signatureMatches(canonical: string, signature: string, secret: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signCanonical(canonical, secret), 'hex'), Buffer.from(signature, 'hex'));
}

/**
 * A signed URL: `base` + `path`, the parameters percent-encoded (encodeURIComponent) and sorted,
 * then `sig`. What `platen sign-url` prints and customers' backends produce.
 */
export function signUrl(base: string, path: string, params: Record<string, string>, secret: string): string {
  const pairs = Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = `${path}?${pairs.join('&')}`;
  const query = [...pairs, `sig=${signCanonical(canonical, secret)}`].join('&');
  return `${base}${path}?${query}`;
}
