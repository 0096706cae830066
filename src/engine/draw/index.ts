/** Public face of the drawing step: replay draw ops onto any Canvas 2D context, and measure text with one. */
export type { DrawContext, DrawHost, GradientLike, Layer, MatrixLike, TextMetricsLike } from './context.ts';
export { DrawFailure, drawOps } from './draw.ts';
export { LAYER_PIXEL_BUDGET, MAX_LAYER_PIXELS } from './effects.ts';
export { createCanvasMeasurer, type MeasuringContext } from './measure.ts';
