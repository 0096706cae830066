/**
 * Public API of the renderer for the service: design document pages → PNG/JPEG/WebP files, one
 * PDF, or one video (MP4, WebM, GIF), on a bounded pool of render processes. Nothing here loads
 * the drawing libraries (Skia, the fonts): only render processes draw, so the service does not
 * hold them (test/service-memory.test.ts). Rendering in the calling process (CLI, tests) is
 * in-process.ts. See docs/rendering.md.
 */
export { decodeDataUri } from './backends/image-sources.ts';
export type { CacheStats } from './backends/lru.ts';
export { drawnSize } from './backends/orientation.ts';
export {
  type CostProblem,
  renderCostProblem,
  type VideoCostOptions,
  videoCostProblem,
  videoFps,
  videoFrameSize,
} from './cost-limits.ts';
export { elementFailure, PoolOverloaded, RenderError, type RenderErrorDetails } from './errors.ts';
export { DEFAULT_STILL_QUALITY, DEFAULT_VIDEO_QUALITY } from './job.ts';
export { assetIdsReferenced } from './job-assets.ts';
export { pageBarcodeProblem } from './layout/barcode.ts';
export { renderLimits } from './limits.ts';
export { RenderPool, type RenderPoolOptions, type RenderPoolStats } from './pool/pool.ts';
export {
  isVideoFormat,
  type JobAsset,
  type JobFont,
  type MediaInfo,
  MIME_TYPES,
  type OutputFormat,
  type RenderedFile,
  type RenderJob,
  type StagedFile,
  type StillFormat,
  VIDEO_FORMATS,
  type VideoFormat,
} from './types.ts';
