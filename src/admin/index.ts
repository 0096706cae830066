/** The operator API (`/admin/v1`, PLATEN_ADMIN_TOKEN) as a feature plugin. */
import type { Feature } from '../http/context.ts';
import { type OperatorServices, operatorRoutes } from './routes.ts';

export function operatorFeature(services: OperatorServices): Feature {
  return { name: 'operator', routes: operatorRoutes(services) };
}
