/**
 * The render API: the render operation with credits and identical-render replay (service.ts,
 * shared by every entry point), upkeep of renders (maintenance.ts), and the machine API's routes.
 */
import type { Feature } from '../http/context.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import type { BackgroundRenders } from './background.ts';
import type { RenderHistory } from './history.ts';
import { renderHistoryRoutes } from './history-routes.ts';
import { renderRoutes, rendersTag } from './routes.ts';
import type { RenderService } from './service.ts';

export { BackgroundRenders } from './background.ts';
// A type only: the module (bullmq, ioredis) is imported by createRenderQueue when configured.
export type { BullRenderQueue } from './bullmq-queue.ts';
export { createRenderQueue } from './create-queue.ts';
export { RenderHistory } from './history.ts';
export { JobInputLoader } from './job-inputs.ts';
export { RenderMaintenance } from './maintenance.ts';
export { consumes, type QueueRole, type RenderQueue } from './queue.ts';
export { RenderQueueWorker } from './queue-worker.ts';
export { atBase, fileKeyOf } from './results.ts';
export { acceptEmptyRenderBody, perCallerRateLimit, rateLimitKeyOf } from './routes.ts';
export {
  estimateRequestSchema,
  isVideoRenderFormat,
  MAX_ESTIMATE_ROWS,
  previewRequestSchema,
  RENDER_FORMATS,
  type RenderFormat,
  type RenderJobView,
  type RenderRequest,
  type RenderResponse,
  type RenderResult,
  renderFormatSchema,
  renderJobSchema,
  renderOptionShape,
  renderRequestSchema,
  renderResponseSchema,
  STILL_FORMATS,
  VIDEO_FORMATS,
  type VideoRenderFormat,
  versionPinSchema,
} from './schemas.ts';
export { select as selectPages } from './selection.ts';
export {
  type CreditEstimate,
  EXTENSIONS,
  RENDER_MIME_TYPES,
  type RenderQuota,
  RenderService,
} from './service.ts';

export function rendersFeature(
  renders: RenderService,
  background: BackgroundRenders,
  limiter: RateLimiter | null,
): Feature {
  return { name: 'renders', openApiTag: rendersTag, routes: renderRoutes(renders, background, limiter) };
}

export function renderHistoryFeature(history: RenderHistory): Feature {
  return { name: 'render-history', routes: renderHistoryRoutes(history) };
}
