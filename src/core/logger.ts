/** The pino logger: structured JSON, request ids, and secrets redacted wherever they could appear. */
import pino, { type Logger } from 'pino';

export const redactPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'key',
  'token',
  'secret',
  'password',
  '*.key',
  '*.token',
  '*.secret',
  '*.password',
];

const REDACTED = '[redacted]';

/**
 * Paths whose rest is a capability or a one-time token: a stored file's key (`/files/<key>`), the
 * console's setup and password-reset links (`/console/setup/<token>`, `/console/reset/<token>`).
 * Compared with the path decoded and lower-cased, as the router may match it.
 */
const SECRET_PATH_PREFIXES = ['/files/', '/console/setup/', '/console/reset/'];

/**
 * Query parameters whose value is a secret or one: tokens and links' tokens (`token`, `code`,
 * OAuth's `state`, `code_verifier`, `access_token`…), signatures (`sig`), keys, passwords, session
 * and CSRF values, and the consent page's pending `request`. Matched on the decoded name.
 */
const SECRET_PARAM =
  /^(sig|signature|code|state|request|nonce|key|session|csrf|assertion|otp)$|token$|secret$|passw(or)?d$|[_-]key$|apikey$|[_-]sig$|verifier$/i;

/** A parameter holding a URL of ours (sign-in's `next`): redacted by the same rules, recursively. */
const NESTED_URL_PARAM = /^(next|return_?to|redirect)$/i;

/**
 * Platen's own credentials wherever they appear: API keys, OAuth tokens, codes and client secrets,
 * URL-signing and webhook secrets (prefixed), and JWTs (embed sessions).
 */
const CREDENTIAL = /\b(plt|pat|prt|pac|pcs|urlsec|whsec)_[A-Za-z0-9_+/=%-]{16,}/g;
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function redactPath(path: string): string {
  const decoded = decode(path).toLowerCase();
  for (const prefix of SECRET_PATH_PREFIXES)
    if (decoded.startsWith(prefix) && decoded.length > prefix.length) return `${prefix}${REDACTED}`;
  return path;
}

function redactQuery(query: string, depth: number): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = decode(pair.slice(0, eq));
      if (SECRET_PARAM.test(name)) return `${pair.slice(0, eq)}=${REDACTED}`;
      if (NESTED_URL_PARAM.test(name))
        return `${pair.slice(0, eq)}=${encodeURIComponent(redactUrl(decode(pair.slice(eq + 1)), depth + 1))}`;
      return pair;
    })
    .join('&');
}

/**
 * A request URL as it may be logged: no capability path, no secret query value, no credential of
 * ours anywhere in it. What is left (the route, ids, harmless options) still says what was asked.
 */
export function redactUrl(url: string, depth = 0): string {
  if (depth > 3) return REDACTED;
  const hash = url.indexOf('#');
  const withoutFragment = hash < 0 ? url : url.slice(0, hash);
  const question = withoutFragment.indexOf('?');
  const path = question < 0 ? withoutFragment : withoutFragment.slice(0, question);
  const query = question < 0 ? null : withoutFragment.slice(question + 1);
  const redacted = redactPath(path) + (query === null ? '' : `?${redactQuery(query, depth)}`);
  return redacted.replace(CREDENTIAL, `$1_${REDACTED}`).replace(JWT, REDACTED);
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: redactPaths, censor: REDACTED },
      serializers: {
        req(request: { method?: string; url?: string; id?: string }) {
          // Capability URLs, one-time links and signatures are secrets too: never logged.
          const url = request.url === undefined ? undefined : redactUrl(request.url);
          return { method: request.method, url, requestId: request.id };
        },
      },
    },
    destination,
  );
}
