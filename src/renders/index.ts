/**
 * The render API: the render operation with credits and identical-render replay (service.ts,
 * shared by every entry point), upkeep of renders (maintenance.ts), and the machine API's routes.
 */
import type { Feature } from '../http/context.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { renderRoutes, rendersTag } from './routes.ts';
import type { RenderService } from './service.ts';

export { JobInputLoader } from './job-inputs.ts';
export { RenderMaintenance } from './maintenance.ts';
export { fileKeyOf } from './results.ts';
export { acceptEmptyRenderBody, perCallerRateLimit, rateLimitKeyOf } from './routes.ts';
export {
  type RenderRequest,
  type RenderResponse,
  type RenderResult,
  renderRequestSchema,
  renderResponseSchema,
} from './schemas.ts';
export { type RenderQuota, RenderService } from './service.ts';

export function rendersFeature(renders: RenderService, limiter: RateLimiter | null): Feature {
  return { name: 'renders', openApiTag: rendersTag, routes: renderRoutes(renders, limiter) };
}
