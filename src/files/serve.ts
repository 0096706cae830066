/**
 * Serves stored files (assets, renders) at unguessable capability URLs `/files/<key>`. The headers
 * keep an uploaded SVG from running script on the service's origin and let caches keep files forever.
 * A single byte range (RFC 9110 section 14) is served as 206, so `<video>` and `<audio>` can seek
 * (Safari plays nothing without it).
 */
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { AppError } from '../core/errors.ts';
import type { Feature } from '../http/context.ts';
import { parseRange, type RangeRequest, resolveRange } from './range.ts';
import type { FileStore } from './types.ts';

// Every segment starts with a letter, digit, `_` or `-`: dot-names are the store's own (temp files).
const KEY_SHAPE = /^(assets|renders)\/[A-Za-z0-9_]+\/[A-Za-z0-9_-]{16,}\/[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** On every answer that is about a file (the 416 included), never on an error. */
const FILE_HEADERS = {
  'accept-ranges': 'bytes',
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
  'cross-origin-resource-policy': 'cross-origin',
};

const notFound = () => new AppError('NOT_FOUND', 'The file was not found.');

/** A storage failure is a 500 whose log names the failure, never the key (a capability) nor a message quoting it. */
async function fromStore<T>(log: FastifyBaseLogger, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    log.error({ errorName: error instanceof Error ? error.name : typeof error }, 'file read failed');
    throw new AppError('INTERNAL');
  }
}

/**
 * The range a GET asks for, or null to send the whole file. There is no ETag for If-Range to
 * compare, so a conditional range is never known to match: the whole file is the answer (14.2).
 */
function rangeAsked(headers: { range?: string; 'if-range'?: string }): RangeRequest | null {
  return headers['if-range'] === undefined ? parseRange(headers.range) : null;
}

export function fileServingFeature(files: FileStore): Feature {
  return {
    name: 'files',
    routes: async (app) => {
      // HEAD is its own branch, not Fastify's implicit one: that one would read the whole file to discard it.
      app.route({
        method: ['GET', 'HEAD'],
        url: '/files/*',
        schema: { hide: true },
        config: { auth: 'none' },
        handler: async (request, reply) => {
          const key = (request.params as { '*': string })['*'];
          if (!KEY_SHAPE.test(key) || key.includes('..')) throw notFound();
          // Range is defined for GET only (14.2): HEAD answers as a whole-file GET would.
          if (request.method === 'HEAD') {
            const info = await fromStore(request.log, () => files.head(key));
            if (!info) throw notFound();
            return sendWhole(reply, info.contentType, info.byteSize);
          }
          const wanted = rangeAsked(request.headers);
          if (wanted) {
            const info = await fromStore(request.log, () => files.head(key));
            if (!info) throw notFound();
            const range = resolveRange(wanted, info.byteSize);
            if (range === 'unsatisfiable')
              return reply
                .code(416)
                .headers(FILE_HEADERS)
                .header('content-range', `bytes */${info.byteSize}`)
                .send();
            if (range) {
              const part = await fromStore(request.log, () => files.getStream(key, range));
              if (!part) throw notFound();
              if (part.byteSize === info.byteSize)
                return reply
                  .code(206)
                  .headers(FILE_HEADERS)
                  .header('content-type', part.contentType)
                  .header('content-length', String(range.end - range.start + 1))
                  .header('content-range', `bytes ${range.start}-${range.end}/${info.byteSize}`)
                  .send(part.stream);
              // Overwritten between sizing and reading (keys are written once, so rarely if ever):
              // the range no longer describes these bytes, so the whole file, as it is now, goes instead.
              if (part.stream instanceof Readable) part.stream.destroy();
            }
          }
          const file = await fromStore(request.log, () => files.getStream(key));
          if (!file) throw notFound();
          return sendWhole(reply, file.contentType, file.byteSize, file.stream);
        },
      });
    },
  };
}

function sendWhole(
  reply: FastifyReply,
  contentType: string,
  byteSize: number,
  stream?: NodeJS.ReadableStream,
): FastifyReply {
  return reply
    .headers(FILE_HEADERS)
    .header('content-type', contentType)
    .header('content-length', String(byteSize))
    .send(stream);
}
