/**
 * Element schemas of the design document, one strict zod object per element type, joined by a
 * discriminated union on `type` so error paths name the exact field. Parsing fills every default:
 * documents are stored normalised, so changing a default later never changes an existing design.
 */
import { z } from 'zod';
import { designBounds as B } from './bounds.ts';
import { colorSchema } from './color.ts';
import { imageFitSchema, imageSrcSchema } from './image-src.ts';
import { mediaAssetSrcSchema, motionBounds, motionShape } from './motion.ts';
import { paintSchema } from './paint.ts';
import { spanSchema, textHighlightSchema, textStrokeSchema } from './rich-text.ts';

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
  // Version 2 effects. Optional without defaults: a version 1 document parses to the same object.
  /** A drop shadow of the element's drawn pixels, in page units, unrotated by the element. */
  shadow: z
    .strictObject({
      color: colorSchema,
      blur: finite(0, B.blurRadius).default(0),
      offsetX: finite(-B.shadowOffset, B.shadowOffset).default(0),
      offsetY: finite(-B.shadowOffset, B.shadowOffset).default(0),
    })
    .optional(),
  /** Gaussian blur radius of the element's drawn pixels (CSS `filter: blur()`), in page units. */
  blur: finite(0, B.blurRadius).optional(),
  /** Mirror the element across its vertical (flipX) or horizontal (flipY) centre line. */
  flipX: z.boolean().optional(),
  flipY: z.boolean().optional(),
  // Motion (src/design/motion.ts): optional without defaults, ignored by still formats unless a
  // render names `timeMs`.
  ...motionShape,
};

const strokeWidth = (fallback: number) => finite(0, B.strokeWidth).default(fallback);
const cornerRadius = finite(0, B.cornerRadius).default(0);

export const textElementSchema = z
  .strictObject({
    id: elementIdSchema,
    type: z.literal('text'),
    ...commonShape,
    /** Plain text; empty when the element carries `spans` instead. */
    text: z.string().max(B.textLength).default(''),
    /** Rich text (version 2): runs of text, each inheriting what it omits from the element. */
    spans: z.array(spanSchema).min(1).max(B.spansPerElement).optional(),
    fontFamily: z.string().min(1).max(B.fontFamilyLength).default('Inter'),
    fontSize: finite(B.fontSize.min, B.fontSize.max).default(32),
    fontWeight: z.number().int().min(100).max(900).default(400),
    fontStyle: z.enum(['normal', 'italic']).default('normal'),
    color: paintSchema.default('#000000'),
    align: z.enum(['left', 'center', 'right', 'justify']).default('left'),
    verticalAlign: z.enum(['top', 'middle', 'bottom']).default('top'),
    lineHeight: finite(B.lineHeight.min, B.lineHeight.max).default(1.2),
    letterSpacing: finite(-B.letterSpacing, B.letterSpacing).default(0),
    autoFit: z.enum(['none', 'shrink']).default('none'),
    /** Smallest size `autoFit: shrink` may reach; ignored when larger than `fontSize`. */
    minFontSize: finite(B.fontSize.min, B.fontSize.max).default(8),
    maxLines: z.number().int().min(1).max(B.maxLines).nullable().default(null),
    textTransform: z.enum(['none', 'uppercase', 'lowercase', 'capitalize']).default('none'),
    /** An outline around every glyph, centred on its edge. */
    stroke: textStrokeSchema.optional(),
    /** A box behind each line. */
    highlight: textHighlightSchema.optional(),
  })
  .refine((el) => el.spans === undefined || el.text === '', {
    error: 'give either text or spans, not both',
    path: ['text'],
  });

export const imageElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('image'),
  ...commonShape,
  src: imageSrcSchema,
  fit: imageFitSchema.default('cover'),
  cornerRadius,
  /** The part of the source to show, in fractions of its size, applied before `fit`. */
  crop: z
    .strictObject({
      x: finite(0, 1),
      y: finite(0, 1),
      // At least 1/10,000 of the source: a thinner crop is no part of any picture, and scaling it
      // up to a box would overflow the geometry (5e-324 made fit produce Infinity).
      width: finite(0.0001, 1),
      height: finite(0.0001, 1),
    })
    .refine((c) => c.x + c.width <= 1 + 1e-9, { error: 'x + width must be at most 1', path: ['width'] })
    .refine((c) => c.y + c.height <= 1 + 1e-9, { error: 'y + height must be at most 1', path: ['height'] })
    .optional(),
  /** CSS filter functions, applied in this order; 1 (or 0 for grayscale, sepia, blur) changes nothing. */
  filters: z
    .strictObject({
      brightness: finite(0, 10).optional(),
      contrast: finite(0, 10).optional(),
      saturation: finite(0, 10).optional(),
      grayscale: finite(0, 1).optional(),
      sepia: finite(0, 1).optional(),
      blur: finite(0, B.blurRadius).optional(),
    })
    .optional(),
  /** A border following `cornerRadius`, centred on the box edge. */
  stroke: colorSchema.nullable().optional(),
  strokeWidth: finite(0, B.strokeWidth).optional(),
});

export const rectElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('rect'),
  ...commonShape,
  // Black, like SVG's default fill: a shape with no fill given is still visible.
  fill: paintSchema.default('#000000'),
  stroke: colorSchema.nullable().default(null),
  strokeWidth: strokeWidth(0),
  cornerRadius,
});

export const ellipseElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('ellipse'),
  ...commonShape,
  fill: paintSchema.default('#000000'),
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

export const barcodeFormats = [
  'code128',
  'ean13',
  'upca',
  'code39',
  'itf14',
  'datamatrix',
  'pdf417',
] as const;

/**
 * A barcode drawn as vector bars by bwip-js. Whether `value` fits `format` (check digits, allowed
 * characters) is the encoder's decision at render time: a value it refuses fails the render with
 * 422 BARCODE_INVALID, never a barcode that scans as something else.
 */
export const barcodeElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('barcode'),
  ...commonShape,
  format: z.enum(barcodeFormats),
  value: z.string().min(1).max(B.barcodeValueLength),
  color: colorSchema.default('#000000'),
  background: colorSchema.default('#ffffff'),
  /** The human-readable text under a linear barcode; 2D symbols have none. */
  showText: z.boolean().default(true),
});

/**
 * A clip from an uploaded video asset playing inside a scene (motion). A still render draws its
 * frame at the render's time; the clip's sound is mixed into MP4 and WebM unless `muted`.
 */
export const videoElementSchema = z.strictObject({
  id: elementIdSchema,
  type: z.literal('video'),
  ...commonShape,
  src: mediaAssetSrcSchema,
  fit: imageFitSchema.default('cover'),
  cornerRadius,
  /** Where in the clip the scene's start falls. */
  trimStartMs: finite(0, motionBounds.timeMs).optional(),
  muted: z.boolean().optional(),
  /** Start again from `trimStartMs` when the clip ends; otherwise its last frame stays. */
  loop: z.boolean().optional(),
});

const leafElementSchemas = [
  textElementSchema,
  imageElementSchema,
  rectElementSchema,
  ellipseElementSchema,
  lineElementSchema,
  svgElementSchema,
  qrElementSchema,
  barcodeElementSchema,
  videoElementSchema,
] as const;

type LeafElement = z.output<(typeof leafElementSchemas)[number]>;
type LeafElementInput = z.input<(typeof leafElementSchemas)[number]>;

const groupShape = {
  id: elementIdSchema,
  type: z.literal('group'),
  ...commonShape,
  /** Clip the children to the group's box. */
  clip: z.boolean().optional(),
};

/**
 * A group (version 2): children placed relative to the group's box (a child at x 0 sits on the
 * group's left edge); the group's rotation, opacity, flips and effects apply to all of them.
 * Depth and the total element count are checked on the raw JSON before this schema (validate.ts).
 */
export interface GroupElement extends z.output<z.ZodObject<typeof groupShape>> {
  elements: Element[];
}
export interface GroupElementInput extends z.input<z.ZodObject<typeof groupShape>> {
  elements?: ElementInput[];
}

export const groupElementSchema: z.ZodType<GroupElement, GroupElementInput> = z.strictObject({
  ...groupShape,
  get elements() {
    return z.array(elementSchema).default(() => []);
  },
}) as unknown as z.ZodType<GroupElement, GroupElementInput>;

export type Element = LeafElement | GroupElement;
export type ElementInput = LeafElementInput | GroupElementInput;

/** Any element: a union on `type`, so error paths name the exact field. */
export const elementSchema: z.ZodType<Element, ElementInput> = z.lazy(() =>
  z.discriminatedUnion('type', [...leafElementSchemas, groupElementSchema as never]),
) as unknown as z.ZodType<Element, ElementInput>;

export const elementTypes = [
  'text',
  'image',
  'rect',
  'ellipse',
  'line',
  'svg',
  'qr',
  'barcode',
  'video',
  'group',
] as const;

export type TextElement = z.output<typeof textElementSchema>;
export type ImageElement = z.output<typeof imageElementSchema>;
export type RectElement = z.output<typeof rectElementSchema>;
export type EllipseElement = z.output<typeof ellipseElementSchema>;
export type LineElement = z.output<typeof lineElementSchema>;
export type SvgElement = z.output<typeof svgElementSchema>;
export type QrElement = z.output<typeof qrElementSchema>;
export type BarcodeElement = z.output<typeof barcodeElementSchema>;
export type VideoElement = z.output<typeof videoElementSchema>;
export type BarcodeFormat = (typeof barcodeFormats)[number];
export type ElementType = Element['type'];
