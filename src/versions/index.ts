/**
 * Template versions (docs/versions.md): publish a template's draft as immutable numbered versions,
 * pin them in renders, roll back, diff. The service every entry point calls, and its routes, under
 * the templates tag of the API document.
 */
import type { Feature } from '../http/context.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { versionRoutes } from './routes.ts';
import type { TemplateVersionService } from './service.ts';

export {
  type DiffSide,
  type TemplateDiff,
  TemplateVersionService,
  type TemplateVersionView,
} from './service.ts';

export function versionsFeature(versions: TemplateVersionService, limiter: RateLimiter | null): Feature {
  return { name: 'versions', routes: versionRoutes(versions, limiter) };
}
