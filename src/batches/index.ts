/** Bulk renders (batches): the service every entry point calls, and its routes as a feature plugin. */
import type { FileStore } from '../files/index.ts';
import type { Feature } from '../http/context.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { batchesTag, batchRoutes } from './routes.ts';
import type { BatchService } from './service.ts';

export { type BatchEventSink, type BatchInput, BatchService, type BatchView, MAX_ROWS } from './service.ts';

export function batchesFeature(
  service: BatchService,
  files: FileStore,
  limiter: RateLimiter | null,
): Feature {
  return { name: 'batches', openApiTag: batchesTag, routes: batchRoutes(service, files, limiter) };
}
