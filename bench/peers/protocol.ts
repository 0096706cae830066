/**
 * The head-to-head benchmark's peers speak one small HTTP protocol, so the driver treats takumi
 * and Chromium alike, each served as a self-hoster would run it: its own process, over HTTP.
 *
 * - Start: `node --import tsx bench/peers/<peer>-server.ts <default-photo.jpg>`. The server keeps
 *   that file as asset `default`, listens on 127.0.0.1 on a port the OS chooses, gets warm (fonts
 *   registered, page loaded, one render done) and then prints one line: `listening <port>`.
 * - `POST /assets` with image/jpeg bytes → `{"id": "..."}`. The bytes are kept as they came (an
 *   asset store), never decoded ahead of a render.
 * - `GET /assets/<id>` → those bytes (Chromium's page loads its photo from here, as a page would).
 * - `POST /render` with JSON `{"format": "png" | "jpeg", "quality": 90, "headline": "...",
 *   "photo": "<asset id>"}` → 200 with the image and its content-type. Without `photo`, the default.
 *   Renders run one at a time, in arrival order (one warm renderer or page per process).
 * - SIGTERM closes the renderer (Chromium included) and exits.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PeerFormat = 'png' | 'jpeg';

export interface PeerRenderRequest {
  format: PeerFormat;
  /** JPEG quality, 1-100 (90 in the benchmark); PNG ignores it. */
  quality?: number;
  headline: string;
  /** An id from `POST /assets`; the default photo when absent. */
  photo?: string;
}

export const DEFAULT_PHOTO_ID = 'default';
export const CONTENT_TYPES: Record<PeerFormat, string> = { png: 'image/png', jpeg: 'image/jpeg' };

export interface Photo {
  id: string;
  bytes: Buffer;
}

export interface PeerRenderer {
  render(request: PeerRenderRequest, photo: Photo): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** What a renderer knows when it starts: where the server listens (its asset URLs) and the default photo. */
export interface PeerContext {
  base: string;
  defaultPhoto: Photo;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseRenderRequest(body: Buffer): PeerRenderRequest {
  const value = JSON.parse(body.toString('utf8')) as Partial<PeerRenderRequest>;
  if (value.format !== 'png' && value.format !== 'jpeg') throw new Error('format must be png or jpeg');
  if (typeof value.headline !== 'string') throw new Error('headline must be a string');
  return {
    format: value.format,
    quality: typeof value.quality === 'number' ? value.quality : 90,
    headline: value.headline,
    photo: typeof value.photo === 'string' ? value.photo : undefined,
  };
}

/**
 * Runs a peer server in this process: reads the default photo named on the command line, starts
 * the renderer `start` makes, and answers the protocol until SIGTERM.
 */
export async function servePeer(start: (context: PeerContext) => Promise<PeerRenderer>): Promise<void> {
  const photoPath = process.argv[2];
  if (!photoPath) throw new Error('usage: <peer>-server.ts <default-photo.jpg>');
  const defaultPhoto: Photo = { id: DEFAULT_PHOTO_ID, bytes: readFileSync(photoPath) };
  const assets = new Map<string, Buffer>([[defaultPhoto.id, defaultPhoto.bytes]]);
  let renderer: PeerRenderer | undefined;
  // One renderer, one render at a time: a request waits for the one before it.
  let queue: Promise<unknown> = Promise.resolve();

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    if (request.method === 'POST' && url === '/assets') {
      const id = randomUUID();
      assets.set(id, await readBody(request));
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
      return;
    }
    if (request.method === 'GET' && url.startsWith('/assets/')) {
      const bytes = assets.get(decodeURIComponent(url.slice('/assets/'.length)));
      if (!bytes) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': bytes.length }).end(bytes);
      return;
    }
    if (request.method === 'POST' && url === '/render') {
      const body = parseRenderRequest(await readBody(request));
      const id = body.photo ?? DEFAULT_PHOTO_ID;
      const bytes = assets.get(id);
      if (!bytes) return void response.writeHead(404).end(`no asset ${id}`);
      if (!renderer) return void response.writeHead(503).end('starting');
      const ready = renderer;
      const rendered = queue.then(() => ready.render(body, { id, bytes }));
      queue = rendered.catch(() => undefined);
      const image = await rendered;
      response
        .writeHead(200, { 'content-type': CONTENT_TYPES[body.format], 'content-length': image.byteLength })
        .end(image);
      return;
    }
    response.writeHead(404).end();
  };

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(error instanceof Error ? error.message : String(error));
    });
  });
  // The driver's one client keeps its connection between requests.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const shutdown = async () => {
    server.close();
    server.closeAllConnections();
    await renderer?.close().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  renderer = await start({ base: `http://127.0.0.1:${port}`, defaultPhoto });
  process.stdout.write(`listening ${port}\n`);
}
