/**
 * `application/x-www-form-urlencoded` bodies (HTML forms, OAuth token and revocation requests,
 * RFC 6749 Appendix B) for the plugin that registers it. A parameter sent twice comes out as an
 * array, so a schema expecting one string refuses it (RFC 6749 §3.1: parameters MUST NOT repeat).
 */
import type { FastifyInstance } from 'fastify';

export type FormBody = Record<string, string | string[]>;

export function parseForm(text: string): FormBody {
  const out: FormBody = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const seen = out[key];
    if (seen === undefined) out[key] = value;
    else out[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, parseForm(String(body))),
  );
}
