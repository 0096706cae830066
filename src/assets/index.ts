/**
 * Assets: uploads classified by their bytes, stored under capability URLs (service.ts, shared by
 * the machine API, the embed asset picker and MCP), and the machine API's routes as a feature.
 */
import type { Feature } from '../http/context.ts';
import { assetRoutes, assetsTag } from './routes.ts';

export { acceptUploads, assetSchema, readUpload, uploadQuery } from './routes.ts';

import type { AssetService } from './service.ts';

export { type AssetResponse, AssetService } from './service.ts';

export function assetsFeature(assets: AssetService, maxBytes: number): Feature {
  return { name: 'assets', openApiTag: assetsTag, routes: assetRoutes(assets, maxBytes) };
}
