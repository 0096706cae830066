/**
 * Element schemas of the design document, one strict zod object per element type, joined by a
 * discriminated union on `type` so error paths name the exact field. Parsing fills every default:
 * documents are stored normalised, so changing a default later never changes an existing design.
 */
import { z } from 'zod';
import { designBounds as B } from './bounds.ts';
import { colorSchema } from './color.ts';
import { imageFitSchema, imageSrcSchema } from './image-src.ts';

const finite = (min: number, max: number) => z.number().min(min).max(max);

export const elementIdSchema = z.string().min(1).max(B.idLength);

/** Fields every element shares besides `id` and `type`. `width`/`height` are replaced for `line`, which may point anywhere. */
const commonShape = {
  name: z.string().max(B.nameLength).optional(),
  x: finite(-B.coordinate, B.coordinate),
  y: finite(-B.coordinate, B.coordinate),
  width: finite(0, B.size),
  height: finite(0, B.size),
  rotation: finite(-B.rotation, B.rotation).default(0),
  opacity: finite(0, 1).default(1),
  visible: z.boolean().default(true),
  locked: z.boolean().default(false),
};

const strokeWidth = (fallback: number) => finite(0, B.strokeWidth).default(fallback);
const cornerRadius = finite(0, B.cornerRadius).default(0);

export const textElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('text'),
  ...commonShape,
  text: z.string().max(B.textLength),
  fontFamily: z.string().min(1).max(B.fontFamilyLength).default('Inter'),
  fontSize: finite(B.fontSize.min, B.fontSize.max).default(32),
  fontWeight: z.number().int().min(100).max(900).default(400),
  fontStyle: z.enum(['normal', 'italic']).default('normal'),
  color: colorSchema.default('#000000'),
  align: z.enum(['left', 'center', 'right', 'justify']).default('left'),
  verticalAlign: z.enum(['top', 'middle', 'bottom']).default('top'),
  lineHeight: finite(B.lineHeight.min, B.lineHeight.max).default(1.2),
  letterSpacing: finite(-B.letterSpacing, B.letterSpacing).default(0),
  autoFit: z.enum(['none', 'shrink']).default('none'),
  /** Smallest size `autoFit: shrink` may reach; ignored when larger than `fontSize`. */
  minFontSize: finite(B.fontSize.min, B.fontSize.max).default(8),
  maxLines: z.number().int().min(1).max(B.maxLines).nullable().default(null),
  textTransform: z.enum(['none', 'uppercase', 'lowercase', 'capitalize']).default('none'),
});

export const imageElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('image'),
  ...commonShape,
  src: imageSrcSchema,
  fit: imageFitSchema.default('cover'),
  cornerRadius,
});

export const rectElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('rect'),
  ...commonShape,
  // Black, like SVG's default fill: a shape with no fill given is still visible.
  fill: colorSchema.default('#000000'),
  stroke: colorSchema.nullable().default(null),
  strokeWidth: strokeWidth(0),
  cornerRadius,
});

export const ellipseElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('ellipse'),
  ...commonShape,
  fill: colorSchema.default('#000000'),
  stroke: colorSchema.nullable().default(null),
  strokeWidth: strokeWidth(0),
});

/** A line runs from (x, y) to (x + width, y + height), so its width and height may be negative. */
export const lineElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('line'),
  ...commonShape,
  width: finite(-B.coordinate, B.coordinate),
  height: finite(-B.coordinate, B.coordinate),
  stroke: colorSchema.default('#000000'),
  strokeWidth: strokeWidth(1),
  dash: z
    .array(finite(0, B.dashValue))
    .max(B.dashEntries)
    .default(() => []),
});

export const svgElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('svg'),
  ...commonShape,
  svg: z
    .string()
    .max(B.svgLength)
    .refine((markup) => /<svg[\s>]/i.test(markup), { error: 'must contain an <svg> element' }),
});

export const qrElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('qr'),
  ...commonShape,
  value: z.string().min(1).max(B.qrValueLength),
  color: colorSchema.default('#000000'),
  background: colorSchema.default('#ffffff'),
});

export const elementSchema = z.discriminatedUnion('type', [
  textElementSchema,
  imageElementSchema,
  rectElementSchema,
  ellipseElementSchema,
  lineElementSchema,
  svgElementSchema,
  qrElementSchema,
]);

export const elementTypes = ['text', 'image', 'rect', 'ellipse', 'line', 'svg', 'qr'] as const;

export type TextElement = z.output<typeof textElementSchema>;
export type ImageElement = z.output<typeof imageElementSchema>;
export type RectElement = z.output<typeof rectElementSchema>;
export type EllipseElement = z.output<typeof ellipseElementSchema>;
export type LineElement = z.output<typeof lineElementSchema>;
export type SvgElement = z.output<typeof svgElementSchema>;
export type QrElement = z.output<typeof qrElementSchema>;
export type Element = z.output<typeof elementSchema>;
export type ElementInput = z.input<typeof elementSchema>;
export type ElementType = Element['type'];
