/**
 * Public API of the renderer: design document pages → PNG/JPEG/WebP files, one PDF, or one video
 * (MP4, WebM, GIF), in process (CLI, tests) or on a bounded pool of render processes (the service).
 * See docs/rendering.md.
 */
export { BUNDLED_FAMILIES, scopedAlias } from './backends/fonts.ts';
export { decodeDataUri } from './backends/image-sources.ts';
export type { CacheStats } from './backends/lru.ts';
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
export { pageBarcodeProblem } from './layout/barcode.ts';
export { renderLimits } from './limits.ts';
export { RenderPool, type RenderPoolOptions, type RenderPoolStats } from './pool/pool.ts';
export { assetIdsReferenced, renderInProcess } from './render.ts';
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
