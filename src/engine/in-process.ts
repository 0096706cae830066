/**
 * Rendering in the calling process (the CLI, tests, benchmarks): the drawing libraries load with
 * this module. The service never imports it: its render processes draw (pool/render-process.ts),
 * and the engine's index (index.ts) keeps Skia and the fonts out of the service's memory.
 */
export { BUNDLED_FAMILIES, scopedAlias } from './backends/fonts.ts';
export { renderInProcess } from './render.ts';
