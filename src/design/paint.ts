/**
 * Paints of the design document (version 2): a colour, or a linear or radial gradient of 2-16
 * stops. Taken wherever a fill colour is (`rect`/`ellipse` `fill`, text `color`, page `background`).
 * Geometry is relative to the painted box, so a gradient moves and resizes with its element.
 */
import { z } from 'zod';
import { designBounds as B } from './bounds.ts';
import { colorSchema } from './color.ts';

export const gradientStopSchema = z.strictObject({
  /** Position along the gradient, 0 (start) to 1 (end). */
  offset: z.number().min(0).max(1),
  color: colorSchema,
});

const stops = z.array(gradientStopSchema).min(2).max(B.gradientStops);

/**
 * `angle` in degrees, clockwise, as CSS `linear-gradient`: 0 runs bottom to top, 90 left to
 * right, 180 top to bottom. The gradient line spans the box's projection on it (CSS's length).
 */
export const linearGradientSchema = z.strictObject({
  type: z.literal('linear'),
  angle: z.number().min(-B.rotation).max(B.rotation).default(180),
  stops,
});

/** Centred on the box, reaching its farthest corner (CSS `radial-gradient(circle farthest-corner)`). */
export const radialGradientSchema = z.strictObject({
  type: z.literal('radial'),
  stops,
});

export const gradientSchema = z.discriminatedUnion('type', [linearGradientSchema, radialGradientSchema]);

export const paintSchema = z.union([colorSchema, gradientSchema]);

export type GradientStop = z.output<typeof gradientStopSchema>;
export type LinearGradient = z.output<typeof linearGradientSchema>;
export type RadialGradient = z.output<typeof radialGradientSchema>;
export type Gradient = z.output<typeof gradientSchema>;
export type DocumentPaint = z.output<typeof paintSchema>;

export const isGradient = (paint: DocumentPaint): paint is Gradient => typeof paint !== 'string';
