/**
 * The API reference at `/docs`: Redoc (its standalone bundle, served from the `redoc` package under a
 * content-hashed path, so it may be cached for a year) rendering the document at `/openapi.json`.
 * Nothing on the page comes from another origin: no CDN, no web fonts (Redoc's stock HTML template
 * links Google Fonts, so it is not used), and a Content-Security-Policy that lets the page reach
 * only its own origin. Like `/openapi.json` it knows no feature: it shows whatever the kernel documents.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.ts';

/** Platen's mark: a sheet on the platen, then the name. The document's `info.x-logo` and the favicon. */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="172" height="48" viewBox="0 0 172 48">' +
  '<rect x="2" y="4" width="40" height="40" rx="9" fill="#4f46e5"/>' +
  '<rect x="11" y="12" width="22" height="17" rx="2" fill="#ffffff"/>' +
  '<rect x="11" y="33" width="22" height="3.5" rx="1.75" fill="#c7d2fe"/>' +
  '<text x="52" y="34.5" font-family="system-ui,-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif" ' +
  'font-size="27" font-weight="700" fill="#111827">Platen</text></svg>';
const MARK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="9" fill="#4f46e5"/>' +
  '<rect x="9" y="8" width="22" height="17" rx="2" fill="#fff"/><rect x="9" y="29" width="22" height="3.5" rx="1.75" fill="#c7d2fe"/></svg>';

const svgDataUri = (svg: string) => `data:image/svg+xml,${encodeURIComponent(svg)}`;
export const PLATEN_LOGO = svgDataUri(LOGO_SVG);

const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const MONO = 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace';

/** Redoc's options: the studio's indigo and ink, system fonts (nothing to download), dark samples. */
const REDOC_OPTIONS = {
  theme: {
    colors: {
      primary: { main: '#4f46e5' },
      text: { primary: '#111827', secondary: '#4b5563' },
      border: { dark: '#d1d5db', light: '#e5e7eb' },
    },
    typography: {
      fontSize: '15px',
      lineHeight: '1.6em',
      fontFamily: SANS,
      headings: { fontFamily: SANS, fontWeight: '650' },
      code: { fontFamily: MONO, fontSize: '12.5px', color: '#3730a3', backgroundColor: '#eef0ff' },
      links: { color: '#4338ca', visited: '#4338ca', hover: '#312e81' },
    },
    sidebar: {
      width: '250px',
      backgroundColor: '#f5f6f8',
      textColor: '#111827',
      activeTextColor: '#4338ca',
    },
    // Redoc sizes the logo's box, gutter included: 36 px of logo under 18 px above and below.
    logo: { maxHeight: '72px', maxWidth: '100%', gutter: '18px 24px' },
    // Wide enough for the samples' 63 columns in a 1440-pixel window.
    rightPanel: { backgroundColor: '#1e2030', width: '50%', textColor: '#f3f4f6' },
    codeBlock: { backgroundColor: '#13141f' },
  },
  expandResponses: '200,201,202',
  requiredPropsFirst: true,
  jsonSampleExpandLevel: 3,
  showWebhookVerb: true,
  hideDownloadButton: false,
  // The browser's scrollbars: lighter than Redoc's custom ones, and the ones a reader knows.
  nativeScrollbars: true,
};

/**
 * Runs after the bundle. Redoc puts its styled-components `<style>` elements under the nonce it is
 * given, which is this script's own, so the policy needs no 'unsafe-inline' for styles.
 */
const INIT_SCRIPT = `(function () {
  var nonce = document.currentScript && document.currentScript.nonce;
  var options = ${JSON.stringify(REDOC_OPTIONS)};
  if (nonce) options.nonce = nonce;
  Redoc.init('/openapi.json', options, document.getElementById('redoc'));
})();
`;

/**
 * Only this origin: the bundle and the init script (both carrying this response's nonce), the
 * document (`connect-src`), the logo (a data: URI), styles carrying the same nonce, and Redoc's search index, which runs
 * in a worker made from a blob: URL. Anything else, fonts included, is refused.
 */
export function apiReferenceCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    'img-src data:',
    "connect-src 'self'",
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Asset {
  path: string;
  body: Buffer;
  /** Compressed on first request, off the event loop (the bundle is 1.1 MB, 0.3 MB gzipped). */
  gzipped?: Promise<Buffer>;
}

const hashedPath = (name: string, body: Buffer) =>
  `/docs/assets/${name}.${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js`;

/**
 * Two edits to Redoc 2.5.4's bundle, each a string that occurs once, so that the page needs neither
 * another origin nor 'unsafe-inline'. Should an upgrade change one, it no longer applies: the
 * server warns, the browser test fails, and the page still works (the policy blocks what was edited).
 */
const BUNDLE_PATCHES = [
  {
    // The sidebar's footer shows Redocly's logo from their CDN, with no option to turn it off. Given
    // an empty data: URI the image fails at once and Redoc drops it, keeping the credit line.
    name: 'footer logo from cdn.redoc.ly',
    from: '"https://cdn.redoc.ly/redoc/logo-mini.svg"',
    to: '"data:,"',
  },
  {
    // The stylesheet the bundle inserts as it loads (its custom scrollbars', unused with native
    // ones) would take webpack's nonce, which Redoc sets only later: take the bundle script's own.
    name: 'stylesheet nonce at load',
    from: 'var t=n.nc;t&&e.setAttribute("nonce",t)',
    to: 'var t=n.nc||document.currentScript&&document.currentScript.nonce;t&&e.setAttribute("nonce",t)',
  },
];

interface Assets {
  bundle: Asset;
  init: Asset;
  /** The patches that found nothing to change. */
  unapplied: string[];
}

/** The bundle, patched and hashed into its path, less its source-map comment (the map is not served). */
async function loadAssets(): Promise<Assets> {
  const file = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  let source = (await readFile(file, 'utf8')).replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  const unapplied: string[] = [];
  for (const patch of BUNDLE_PATCHES) {
    if (source.includes(patch.from)) source = source.replaceAll(patch.from, patch.to);
    else unapplied.push(patch.name);
  }
  const bundle = Buffer.from(source);
  const init = Buffer.from(INIT_SCRIPT);
  return {
    bundle: { path: hashedPath('redoc.standalone', bundle), body: bundle },
    init: { path: hashedPath('init', init), body: init },
    unapplied,
  };
}

const escapeAttr = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function page(assets: Assets, nonce: string): string {
  const attr = escapeAttr(nonce);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Platen API reference</title>
<meta name="description" content="The Platen HTTP API: templates, renders, signed render URLs, batches, assets, embeds, webhooks and the operator API.">
<link rel="icon" href="${escapeAttr(svgDataUri(MARK_SVG))}">
<style nonce="${attr}">body{margin:0;background:#fff}noscript p{font:16px/1.5 ${SANS};margin:2rem}</style>
</head>
<body>
<noscript><p>Platen API reference: this page needs JavaScript. The OpenAPI 3.1 document is at <a href="/openapi.json">/openapi.json</a>.</p></noscript>
<div id="redoc"></div>
<script src="${assets.bundle.path}" nonce="${attr}"></script>
<script src="${assets.init.path}" nonce="${attr}"></script>
</body>
</html>
`;
}

const gzipAsync = promisify(gzip);

async function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('cache-control', IMMUTABLE)
    .header('x-content-type-options', 'nosniff')
    .header('vary', 'accept-encoding');
  if (!/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.send(asset.body);
  asset.gzipped ??= gzipAsync(asset.body, { level: 9 });
  return reply.header('content-encoding', 'gzip').send(await asset.gzipped);
}

export async function apiReferenceRoutes(app: FastifyInstance): Promise<void> {
  // Read on first use: a kernel that never serves the page (tests, workers) never loads 1 MB.
  let loading: Promise<Assets> | undefined;
  const assets = () => {
    loading ??= loadAssets().then((loaded) => {
      for (const name of loaded.unapplied)
        app.log.warn(
          `The Redoc bundle changed: its patch "${name}" no longer applies (see api-reference.ts)`,
        );
      return loaded;
    });
    // A failed read (a file briefly missing during a deploy) is tried again by the next request.
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  const route = { schema: { hide: true }, config: { auth: 'none' } } as const;

  app.get('/docs', route, async (_request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    const html = page(await assets(), nonce);
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', apiReferenceCsp(nonce))
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(html);
  });
  app.get<{ Params: { file: string } }>('/docs/assets/:file', route, async (request, reply) => {
    const { bundle, init } = await assets();
    const asset = [bundle, init].find((a) => a.path === `/docs/assets/${request.params.file}`);
    if (!asset) throw new AppError('NOT_FOUND', 'No such file.');
    return sendAsset(request, reply, asset);
  });
}
