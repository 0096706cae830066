/**
 * Serves stored files (assets, renders) at unguessable capability URLs `/files/<key>`. The headers
 * keep an uploaded SVG from running script on the service's origin and let caches keep files forever.
 */
import { AppError } from '../core/errors.ts';
import type { Feature } from '../http/context.ts';
import type { FileStore } from './types.ts';

// Every segment starts with a letter, digit, `_` or `-`: dot-names are the store's own (temp files).
const KEY_SHAPE = /^(assets|renders)\/[A-Za-z0-9_]+\/[A-Za-z0-9_-]{16,}\/[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export function fileServingFeature(files: FileStore): Feature {
  return {
    name: 'files',
    routes: async (app) => {
      app.get('/files/*', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
        const key = (request.params as { '*': string })['*'];
        if (!KEY_SHAPE.test(key) || key.includes('..'))
          throw new AppError('NOT_FOUND', 'The file was not found.');
        const file = await files.getStream(key).catch((error: unknown) => {
          // The key is a capability: the log names the failure, never the key (nor a message quoting it).
          request.log.error(
            { errorName: error instanceof Error ? error.name : typeof error },
            'file read failed',
          );
          throw new AppError('INTERNAL');
        });
        if (!file) throw new AppError('NOT_FOUND', 'The file was not found.');
        return reply
          .header('content-type', file.contentType)
          .header('content-length', String(file.byteSize))
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "sandbox; default-src 'none'")
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(file.stream);
      });
    },
  };
}
