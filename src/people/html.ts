/**
 * The pages a person uses (sign-in, consent, errors): plain server-rendered HTML, every value
 * escaped, no script. Each answer forbids framing (CSP frame-ancestors and X-Frame-Options),
 * caching and sniffing, and lets forms post only to this origin and the redirect targets named.
 */
import type { FastifyReply } from 'fastify';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1f2328}
main{max-width:26rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.3rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input,select{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}
button{margin:1rem .5rem 0 0;padding:.5rem 1.2rem;font:inherit;cursor:pointer}
.error{color:#b42318}.muted{color:#57606a}ul{padding-left:1.2rem}`;

export interface Page {
  title: string;
  /** HTML, already escaped by the caller. */
  body: string;
  status?: number;
  /** Origins (besides this one) a form on the page may submit to or be redirected to. */
  formTargets?: readonly string[];
  headers?: Record<string, string>;
}

export function sendPage(reply: FastifyReply, page: Page): FastifyReply {
  const targets = ["'self'", ...(page.formTargets ?? [])].join(' ');
  return reply
    .code(page.status ?? 200)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${targets}; frame-ancestors 'none'; base-uri 'none'`,
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      // Never beyond this site (a setup or consent URL carries a token); same-origin form posts
      // then carry their real Origin, where no-referrer would make browsers send `Origin: null`.
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      ...page.headers,
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${escapeHtml(page.title)} · Platen</title><style>${STYLE}</style></head>` +
        `<body><main><h1>${escapeHtml(page.title)}</h1>${page.body}</main></body></html>`,
    );
}

export function errorPage(reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  return sendPage(reply, { status, title, body: `<p class="error" role="alert">${escapeHtml(message)}</p>` });
}

/**
 * True when a form post comes from another site: an `Origin` other than this service's, or (when a
 * browser sent no Origin) `Sec-Fetch-Site: cross-site`. The CSRF token is checked as well.
 */
export function fromForeignOrigin(
  headers: { origin?: string; 'sec-fetch-site'?: string | string[] },
  baseUrl: string,
): boolean {
  // `Origin: null` (a page with no-referrer, a sandbox): only the browser's own Fetch Metadata can vouch.
  if (headers.origin === 'null') return headers['sec-fetch-site'] !== 'same-origin';
  if (headers.origin !== undefined) return headers.origin !== new URL(baseUrl).origin;
  return headers['sec-fetch-site'] === 'cross-site';
}
