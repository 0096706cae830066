/**
 * Preflight (docs/preflight.md): the checks a render would fail or disappoint, free, for every
 * entry point (REST, the studio through its embed routes, MCP, batches with `preflight`).
 */
import type { Feature } from '../http/context.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { preflightRoutes } from './routes.ts';
import type { PreflightService } from './service.ts';

export {
  MAX_PREFLIGHT_ROWS,
  type PreflightRequest,
  type PreflightResult,
  preflightReportSchema,
  preflightRequestSchema,
} from './schemas.ts';
export { PreflightService } from './service.ts';

export function preflightFeature(service: PreflightService, limiter: RateLimiter | null): Feature {
  return { name: 'preflight', routes: preflightRoutes(service, limiter) };
}
