/**
 * Redirect URIs: what a client may register (RFC 7591 §2, RFC 6749 §3.1.2: absolute, no fragment;
 * ours: https, or http on a loopback host for native apps, RFC 8252 §7.3 / §8.3) and how a request's
 * `redirect_uri` matches a registered one: exactly (RFC 6749 §3.1.2.3, OAuth 2.1 §2.3.1), except
 * that the port of a loopback URI may differ (RFC 8252 §7.3).
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const MAX_LENGTH = 2000;

function parse(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const isLoopback = (url: URL): boolean => url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);

/** Null when `value` may be registered, else why not. */
export function redirectUriProblem(value: string): string | null {
  if (value.length > MAX_LENGTH) return `longer than ${MAX_LENGTH} characters`;
  const url = parse(value);
  if (!url) return 'not an absolute URL';
  if (value.includes('#')) return 'has a fragment';
  if (url.username || url.password) return 'carries credentials';
  if (url.protocol === 'https:') return null;
  if (isLoopback(url)) return null;
  return 'must be https, or http on a loopback address (127.0.0.1, [::1], localhost)';
}

/**
 * A loopback redirect URI split around its port, from the string as written (no normalisation):
 * `http://` + host + optional `:port` + the rest (path and query). Null when the string is not of
 * that form: userinfo (`http://u@127.0.0.1/cb`), another scheme or host, a fragment.
 */
const LOOPBACK_FORM = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?([/?][^#]*)?$/;

function loopbackParts(value: string): { host: string; port: string; rest: string } | null {
  const match = LOOPBACK_FORM.exec(value);
  if (!match?.[1]) return null;
  const url = parse(value);
  if (!url || !isLoopback(url) || url.username || url.password) return null;
  return { host: match[1], port: match[2] ?? '', rest: match[3] ?? '' };
}

/**
 * The registered URI `requested` matches, or null: the same string, character for character (RFC
 * 6749 §3.1.2.3, OAuth 2.1 §2.3.1: no normalisation, no userinfo, path or query variants), except
 * that a loopback URI's port may differ or be added (RFC 8252 §7.3); nothing else about it may.
 */
export function matchRedirectUri(registered: readonly string[], requested: string): string | null {
  if (registered.includes(requested)) return requested;
  const asked = loopbackParts(requested);
  if (!asked) return null;
  for (const candidate of registered) {
    const url = loopbackParts(candidate);
    if (url && url.host === asked.host && url.rest === asked.rest) return candidate;
  }
  return null;
}
