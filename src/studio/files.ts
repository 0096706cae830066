/**
 * Sending one file of the studio bundle or of the bundled fonts: content type from a fixed list of
 * extensions (anything else is not served), length, and the caller's cache policy. Names are checked
 * by the routes before they reach here; this module never sees a path from the request.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { FastifyReply } from 'fastify';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

export const contentTypeOf = (path: string): string | undefined => CONTENT_TYPES[extname(path).toLowerCase()];

/** Sends the file, or returns false when it does not exist or has a type not on the list. */
export async function sendFile(reply: FastifyReply, path: string, cacheControl: string): Promise<boolean> {
  const type = contentTypeOf(path);
  if (!type) return false;
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return false;
  await reply
    .header('content-type', type)
    .header('content-length', String(info.size))
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .send(createReadStream(path));
  return true;
}
