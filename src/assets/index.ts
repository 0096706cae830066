/**
 * Assets: uploads classified by their bytes (sniff.ts; video and audio also probed and bounded,
 * media.ts), stored under capability URLs (service.ts, shared by the machine API, the embed asset
 * picker and MCP), and the machine API's routes as a feature.
 */
import type { Feature } from '../http/context.ts';
import { assetRoutes, assetsTag } from './routes.ts';

export {
  acceptUploads,
  assetListQuery,
  assetSchema,
  fromUrlBody,
  readUpload,
  uploadQuery,
} from './routes.ts';

import type { AssetService } from './service.ts';

export { DEFAULT_MEDIA_LIMITS, type MediaLimits } from './media.ts';
export { type AssetLimits, type AssetResponse, AssetService } from './service.ts';

/** `_maxBytes` is kept for callers; the routes take their body limit from the service (uploadLimitBytes). */
export function assetsFeature(assets: AssetService, _maxBytes?: number): Feature {
  return { name: 'assets', openApiTag: assetsTag, routes: assetRoutes(assets) };
}
