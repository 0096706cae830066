/**
 * Templates: the service every entry point calls (visibility and ownership per principal, document
 * validation, revisions) and the machine API's routes as a feature plugin.
 */
import type { Feature } from '../http/context.ts';
import { ifMatchHeaders, templateRoutes, templatesTag } from './routes.ts';
import type { TemplateService } from './service.ts';

export { accessOf, type TemplateAccess } from './access.ts';
export {
  type CreateTemplateInput,
  etagOf,
  type SaveTemplateInput,
  type TemplateChangeListener,
  type TemplateEvent,
  type TemplateEventSink,
  type TemplateRecord,
  TemplateService,
  type TemplateView,
  type VersionPin,
  validateDocument,
} from './service.ts';
export { ifMatchHeaders, templatesTag };

export function templatesFeature(templates: TemplateService): Feature {
  return { name: 'templates', openApiTag: templatesTag, routes: templateRoutes(templates) };
}
