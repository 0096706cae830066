/**
 * Serves the studio and the console: the console's page at `/console/`; the shell's HTML at `/studio/:embedId` (framed by customers' pages, so
 * `frame-ancestors *`, with a CSP that lets it reach only its own origin), the hashed bundle under
 * `/studio/assets/*` (immutable), the `/embed.js` loader, and the very TTF/WOFF2 files the server
 * renders with at `/studio/fonts/*`. Unknown embeds still get the shell, which shows a message
 * (the page holds no data; the shell learns everything through the embed API).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply } from 'fastify';
import { AppError } from '../core/errors.ts';
import { type BundledFontFile, bundledFontFiles } from '../engine/backends/font-files.ts';
import type { Feature } from '../http/context.ts';
import { DEFAULT_DIST_DIR } from './build.ts';
import { type StudioBundle, studioBundle } from './bundle.ts';
import { sendFile } from './files.ts';

export const STUDIO_CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  'frame-ancestors *',
].join('; ');

/** The console: the studio's policy, but never framed by anyone, and framing the studio itself. */
export const CONSOLE_CSP = STUDIO_CSP.replace(
  'frame-ancestors *',
  "frame-src 'self'; frame-ancestors 'none'",
);

const EMBED_ID = /^emb_[A-Za-z0-9]{1,64}$/;
// One path segment of safe characters: no slash, no dot-dot, nothing the OS would interpret.
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,200}$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface StudioOptions {
  /** Where the built bundle lives (default studio/dist). */
  distDir?: string;
  /** Build with Vite in the background when the bundle is missing (default true). */
  buildIfMissing?: boolean;
}

export interface FontManifest {
  fonts: { family: string; weight: number; style: 'normal' | 'italic'; url: string }[];
}

export function fontManifest(files: readonly BundledFontFile[] = bundledFontFiles()): FontManifest {
  return {
    fonts: files.map(({ family, weight, style, file }) => ({
      family,
      weight,
      style,
      url: `/studio/fonts/${encodeURIComponent(file)}`,
    })),
  };
}

function unavailable(reply: FastifyReply, bundle: StudioBundle) {
  const state = bundle.state();
  const text =
    state.kind === 'building'
      ? 'The studio is being built. This page will work in a few seconds.'
      : `The studio is not available: ${state.kind === 'missing' ? state.reason : ''}. Run "npm run build:studio" on the server, then reload.`;
  const html = `<!doctype html><meta charset="utf-8"><title>Studio unavailable</title><p>${escapeHtml(text)}</p>`;
  return reply
    .status(503)
    .header('retry-after', state.kind === 'building' ? '5' : '60')
    .header('cache-control', 'no-store')
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', "default-src 'none'; frame-ancestors *")
    .send(html);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

const notFound = () => new AppError('NOT_FOUND', 'The file was not found.');

export function studioFeature(options: StudioOptions = {}): Feature {
  return {
    name: 'studio',
    routes: async (app) => {
      const bundle = studioBundle(
        options.distDir ?? DEFAULT_DIST_DIR,
        app.log,
        options.buildIfMissing ?? true,
      );
      const fonts = new Map(bundledFontFiles().map((font) => [font.file, font]));
      const manifest = fontManifest();
      const route = { schema: { hide: true }, config: { auth: 'none' } } as const;

      app.get<{ Params: { embedId: string } }>('/studio/:embedId', route, async (request, reply) => {
        if (!EMBED_ID.test(request.params.embedId)) throw new AppError('NOT_FOUND', 'No such embed.');
        if (bundle.state().kind !== 'ready') return unavailable(reply, bundle);
        const html = await readFile(join(bundle.dir, 'index.html'), 'utf8');
        return reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('content-security-policy', STUDIO_CSP)
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'no-referrer')
          .send(html);
      });

      // The console's shell (its screens route by the URL's fragment, so this is its only page).
      app.get('/console/', route, async (_request, reply) => {
        if (bundle.state().kind !== 'ready') return unavailable(reply, bundle);
        const html = await readFile(join(bundle.dir, 'console.html'), 'utf8');
        return reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('content-security-policy', CONSOLE_CSP)
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'same-origin')
          .send(html);
      });

      app.get<{ Params: { '*': string } }>('/studio/assets/*', route, async (request, reply) => {
        const name = request.params['*'];
        if (!ASSET_NAME.test(name) || name.includes('..')) throw notFound();
        if (bundle.state().kind !== 'ready') return unavailable(reply, bundle);
        if (!(await sendFile(reply, join(bundle.dir, 'assets', name), IMMUTABLE))) throw notFound();
        return reply;
      });

      app.get('/embed.js', route, async (_request, reply) => {
        if (bundle.state().kind !== 'ready') return unavailable(reply, bundle);
        // Customers' pages load it cross-origin (also under COEP), and pick up a new loader within minutes.
        reply.header('cross-origin-resource-policy', 'cross-origin');
        if (!(await sendFile(reply, join(bundle.dir, 'embed.js'), 'public, max-age=300'))) throw notFound();
        return reply;
      });

      app.get('/studio/fonts/manifest.json', route, async (_request, reply) =>
        reply.header('cache-control', 'public, max-age=300').send(manifest),
      );

      app.get<{ Params: { file: string } }>('/studio/fonts/:file', route, async (request, reply) => {
        // Only names on the bundled list: the path comes from the list, never from the request.
        const font = fonts.get(request.params.file);
        if (!font) throw notFound();
        if (!(await sendFile(reply, font.path, 'public, max-age=86400'))) throw notFound();
        return reply;
      });
    },
  };
}
