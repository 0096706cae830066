import type { TextLayout } from './text/layout-text.ts';

/**
 * The vocabulary between layout and drawing: positioned draw operations in page units, and the
 * few things layout asks of its host (text measurement, font names, image sizes). Plain data, so
 * layout output can be inspected in tests and replayed onto any Canvas 2D context.
 */

export interface GradientStop {
  offset: number;
  /** CSS colour; stop opacity already folded into it. */
  color: string;
}

export type Paint =
  | string
  | { kind: 'linear'; x0: number; y0: number; x1: number; y1: number; stops: GradientStop[] }
  | { kind: 'radial'; cx: number; cy: number; r: number; fx: number; fy: number; stops: GradientStop[] };

export interface StrokeStyle {
  paint: Paint;
  /** Multiplies the context alpha for this stroke (SVG stroke-opacity with a gradient). */
  alpha: number;
  width: number;
  dash: number[];
  dashOffset: number;
  cap: 'butt' | 'round' | 'square';
  join: 'miter' | 'round' | 'bevel';
  miterLimit: number;
}

export interface FillStyle {
  paint: Paint;
  alpha: number;
  rule: 'nonzero' | 'evenodd';
}

/** A 2D affine matrix as in Canvas `transform(a, b, c, d, e, f)`. */
export type Matrix = readonly [number, number, number, number, number, number];

/**
 * Effects of an element (design document version 2) that reach beyond its drawn pixels. Lengths are
 * in page units; the drawing step scales them by the device scale.
 */
export interface GroupEffects {
  /** A drop shadow of everything the group draws, offset in page axes (not rotated with it). */
  shadow?: { color: string; blur: number; offsetX: number; offsetY: number };
  /** Gaussian blur radius of everything the group draws. */
  blur?: number;
}

export interface GroupOp {
  op: 'group';
  /** The element this group draws, for error messages and tests. */
  elementId?: string;
  /** Rotation and flips (and, for a design group, nothing else: children are laid out in page units). */
  transform?: Matrix;
  /** Multiplies the alpha of everything inside (applied per primitive, see docs/rendering.md). */
  opacity: number;
  /** Clip path (SVG path data) in the group's coordinates, applied after the transform. */
  clip?: string;
  effects?: GroupEffects;
  children: DrawOp[];
}

export interface PathOp {
  op: 'path';
  /** SVG path data; both Skia and browsers build a Path2D from it. */
  d: string;
  fill?: FillStyle;
  stroke?: StrokeStyle;
}

export interface TextRunOp {
  op: 'text';
  /** CSS font shorthand including the whole fallback chain. */
  font: string;
  /** A colour, or a gradient laid over the element's box (page units). */
  color: Paint;
  /** An outline around the glyphs, drawn under the fill (so the outer half shows). */
  stroke?: { color: string; width: number };
  /** Left edge and alphabetic baseline of the run. */
  x: number;
  y: number;
  text: string;
  direction: 'ltr' | 'rtl';
  letterSpacing: number;
  /** Extra space added to each U+0020 / U+00A0 (justified lines). */
  wordSpacing: number;
}

export interface ImageOp {
  op: 'image';
  /** Key of a loaded image (see ImageInfo); the drawing host resolves it to a drawable. */
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Size in device pixels the image will cover, so vector sources can be rasterised crisply. */
  deviceWidth: number;
  deviceHeight: number;
  /** Clip path in page units (the element box, rounded), when the image overflows or is rounded. */
  clip?: string;
  /** A CSS filter (`brightness(1.2) grayscale(1) blur(4px)`), lengths already in device pixels. */
  filter?: string;
}

/** A clickable area (a span's `link`): a PDF link annotation; raster outputs draw nothing. */
export interface LinkOp {
  op: 'link';
  x: number;
  y: number;
  width: number;
  height: number;
  url: string;
}

export type DrawOp = GroupOp | PathOp | TextRunOp | ImageOp | LinkOp;

export interface TextMetricsLite {
  ascent: number;
  descent: number;
}

/** Measures text with a CSS font shorthand; the host backs it with a real canvas. */
export interface TextMeasurer {
  width(font: string, text: string, letterSpacing: number): number;
  metrics(font: string): TextMetricsLite;
}

/** Which font family names a job may use, and what they are called in the canvas registry. */
export interface FontCatalog {
  /** Lower-cased family name as written in documents → registered (possibly scoped) family name. */
  families: ReadonlyMap<string, string>;
  /** Registered family used when a document names an unknown family. */
  defaultFamily: string;
  /** Registered families appended after the primary one, in order (emoji, wide-coverage, CJK). */
  fallbacks: readonly string[];
}

export interface ImageInfo {
  width: number;
  height: number;
}

export interface LayoutEnv {
  measurer: TextMeasurer;
  fonts: FontCatalog;
  /** Intrinsic sizes of loaded images by key (see imageKeyFor). */
  images: ReadonlyMap<string, ImageInfo>;
  /** Output pixels per page unit: scale for raster, the PDF raster resolution for PDF. */
  deviceScale: number;
  /** Motion: elements drawn scaled about their box centre (id → factor; see design/timeline.ts). */
  scales?: ReadonlyMap<string, number>;
  /** When given, each text element's layout by element id (preflight reads how the text fit). */
  textLayouts?: Map<string, TextLayout>;
}

export interface PageLayout {
  width: number;
  height: number;
  ops: DrawOp[];
}
