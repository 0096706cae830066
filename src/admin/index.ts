/** The operator API (`/admin/v1`, PLATEN_ADMIN_TOKEN) as a feature plugin. */
import type { Feature } from '../http/context.ts';
import { type OperatorServices, operatorRoutes, operatorTag } from './routes.ts';

export { createKeyBody } from './routes.ts';

export function operatorFeature(services: OperatorServices): Feature {
  return { name: 'operator', openApiTag: operatorTag, routes: operatorRoutes(services) };
}
