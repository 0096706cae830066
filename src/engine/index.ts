/**
 * Public API of the renderer: design document pages → PNG/JPEG/WebP files or one PDF, in process
 * (CLI, tests) or on a bounded pool of render processes (the service). See docs/rendering.md.
 */
export { BUNDLED_FAMILIES, scopedAlias } from './backends/fonts.ts';
export { decodeDataUri } from './backends/image-sources.ts';
export type { CacheStats } from './backends/lru.ts';
export { PoolOverloaded, RenderError, type RenderErrorDetails } from './errors.ts';
export { renderLimits } from './limits.ts';
export { RenderPool, type RenderPoolOptions, type RenderPoolStats } from './pool/pool.ts';
export { assetIdsReferenced, renderInProcess } from './render.ts';
export type { JobAsset, JobFont, OutputFormat, RenderedFile, RenderJob } from './types.ts';
