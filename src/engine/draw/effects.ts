/**
 * Effects that need pixels (design document version 2): a group's drop shadow and blur, and an
 * image's CSS filters. What they apply to is drawn into an offscreen raster layer aligned with the
 * device pixels (DrawHost.layer), filtered there with Canvas `filter`, and the result is drawn
 * back as one image. The same steps run on a raster canvas, a PDF page (the layer becomes an
 * embedded image; the content itself stays vector: a shadow is drawn under the group's vectors,
 * which are drawn as usual) and a browser canvas, so all three agree.
 *
 * Blur lengths: an element's `blur` and an image filter's blur are CSS `blur()` radii, i.e. the
 * Gaussian's standard deviation σ. A shadow's `blur` means what CSS `box-shadow`/`drop-shadow()`
 * and Canvas `shadowBlur` mean: σ = blur / 2. Layers reach 3σ past what they blur.
 *
 * Bounded work: a layer covers the content's device bounds grown by the effect's reach, cut to
 * the target (viewport) grown by that reach; one above MAX_LAYER_PIXELS is drawn at a lower
 * resolution (a blurred or shadowed result loses little), and a page's layers together may not
 * exceed LAYER_PIXEL_BUDGET, beyond which drawing fails (the host reports the element).
 */
import {
  BLUR_REACH_SIGMAS,
  filterBlurPixels,
  growRect,
  intersectRect,
  isEmptyRect,
  opRect,
  pathDataBounds,
  type Rect,
  shiftRect,
  transformRect,
  UNBOUNDED_RECT,
} from '../layout/bounds.ts';
import { rectPath } from '../layout/geometry.ts';
import type { GroupOp, ImageOp, Matrix } from '../layout/types.ts';
import type { DrawContext, DrawHost, Layer } from './context.ts';

/** Layer pixels per σ of a blur: a blurred layer is drawn no finer than this (see rasterise). */
const BLUR_DETAIL = 2.5;
/** One layer's pixels at most (4096²: 64 MB); a larger one is drawn at a lower resolution. */
export const MAX_LAYER_PIXELS = 16_777_216;
/**
 * Output pixels all effects of one drawing may pass over (the area each effect's layer covers,
 * in the target's device units: compositing it there is most of an effect's cost once wide blurs
 * run at a lower resolution). The job check (src/design/cost.ts, maxEffectPixels 200 M) refuses
 * most costly pages up front from element boxes; this backstop also counts content overflowing
 * its box (long text), with room for these bounds being conservative. Measured on a 2-core
 * machine: a full-page shadow of a 49-megapixel page adds about 0.5 s.
 */
export const LAYER_PIXEL_BUDGET = 300_000_000;

/** Where drawing goes: a context, its host, and the scales and extent that effects need. */
export interface Surface<P, I> {
  ctx: DrawContext<P, I>;
  host: DrawHost<P, I>;
  /** Device units of `ctx` per page unit (from its transform when drawing began). */
  pageScale: number;
  /** Layer pixels per device unit of `ctx`. */
  layerScale: number;
  /** The target in `ctx` device units; unbounded when unknown. */
  viewport: Rect;
  /** Layer pixels still allowed (shared by all surfaces of one drawing). */
  budget: { remaining: number };
}

export class EffectFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'EffectFailure';
  }
}

type Draw<P, I> = (surface: Surface<P, I>) => void;

function currentMatrix<P, I>(ctx: DrawContext<P, I>): Matrix {
  const m = ctx.getTransform();
  return [m.a, m.b, m.c, m.d, m.e, m.f];
}

/** A surface for drawing onto a (non-layer) context. */
export function surfaceFor<P, I>(ctx: DrawContext<P, I>, host: DrawHost<P, I>): Surface<P, I> {
  const m = currentMatrix(ctx);
  const viewport = host.viewport;
  return {
    ctx,
    host,
    pageScale: Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2])) || 1,
    layerScale: host.layerScale ?? 1,
    viewport: viewport ? [0, 0, viewport.width, viewport.height] : UNBOUNDED_RECT,
    budget: { remaining: LAYER_PIXEL_BUDGET },
  };
}

interface Rendered<P, I> {
  layer: Layer<P, I>;
  /** The layer's area in layer-pixel coordinates of the surface (before `resolution`). */
  rect: Rect;
  /** Layer pixels per layer-pixel unit: 1, or less for an oversized layer. */
  resolution: number;
  width: number;
  height: number;
}

/** `rect` (surface layer pixels) rounded out to whole pixels, or null when empty. */
function pixelAligned(rect: Rect): Rect | null {
  if (isEmptyRect(rect) || !rect.every(Number.isFinite)) return null;
  const aligned: Rect = [Math.floor(rect[0]), Math.floor(rect[1]), Math.ceil(rect[2]), Math.ceil(rect[3])];
  return aligned[2] > aligned[0] && aligned[3] > aligned[1] ? aligned : null;
}

function allocate<P, I>(s: Surface<P, I>, width: number, height: number): Layer<P, I> {
  const layer = s.host.layer?.(width, height);
  if (!layer) throw new EffectFailure('this drawing host has no layers');
  layer.ctx.imageSmoothingEnabled = true;
  layer.ctx.imageSmoothingQuality = 'high';
  return layer;
}

/**
 * Charges an effect's area in layer pixels: output pixels on a raster page, and on a PDF page the
 * pixels of its layers at the PDF raster scale, which is where the work is.
 */
function charge<P, I>(s: Surface<P, I>, rect: Rect): void {
  const area = (rect[2] - rect[0]) * (rect[3] - rect[1]);
  if (area > s.budget.remaining)
    throw new EffectFailure(
      `shadows, blurs and filters on this page would pass over more than ${LAYER_PIXEL_BUDGET / 1e6} megapixels`,
    );
  s.budget.remaining -= area;
}

/**
 * Draws `draw` (in the surface's current coordinates) into a new layer covering `area`, to be
 * blurred by σ layer pixels. A wide blur keeps no detail finer than about σ, so its layer is drawn
 * at BLUR_DETAIL / σ of the resolution (a blur of 250 over a page costs what one of 2.5 does).
 */
function rasterise<P, I>(
  s: Surface<P, I>,
  area: Rect,
  sigma: number,
  draw: Draw<P, I>,
): Rendered<P, I> | null {
  const rect = pixelAligned(area);
  if (!rect) return null;
  const spanX = rect[2] - rect[0];
  const spanY = rect[3] - rect[1];
  const resolution = Math.min(
    1,
    Math.sqrt(MAX_LAYER_PIXELS / (spanX * spanY)),
    sigma > BLUR_DETAIL ? BLUR_DETAIL / sigma : 1,
  );
  const width = Math.max(1, Math.ceil(spanX * resolution));
  const height = Math.max(1, Math.ceil(spanY * resolution));
  charge(s, rect);
  const layer = allocate(s, width, height);
  const m = currentMatrix(s.ctx);
  const k = s.layerScale * resolution;
  layer.ctx.setTransform(
    m[0] * k,
    m[1] * k,
    m[2] * k,
    m[3] * k,
    (m[4] * s.layerScale - rect[0]) * resolution,
    (m[5] * s.layerScale - rect[1]) * resolution,
  );
  draw({
    ctx: layer.ctx,
    host: layer.host,
    pageScale: s.pageScale * k,
    layerScale: 1,
    viewport: [0, 0, width, height],
    budget: s.budget,
  });
  return { layer, rect, resolution, width, height };
}

/** A new layer holding `source` blurred by σ (layer pixels) and, given a colour, tinted with it. */
function filtered<P, I>(
  s: Surface<P, I>,
  source: Rendered<P, I>,
  sigma: number,
  tint?: string,
): Rendered<P, I> {
  const { width, height } = source;
  const layer = allocate(s, width, height);
  const ctx = layer.ctx;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (sigma > 0) ctx.filter = `blur(${sigma * source.resolution}px)`;
  ctx.drawImage(source.layer.image, 0, 0, width, height);
  ctx.filter = 'none';
  source.layer.release();
  if (tint) {
    ctx.globalCompositeOperation = 'source-in';
    ctx.fillStyle = tint;
    ctx.fillRect(0, 0, width, height);
    ctx.globalCompositeOperation = 'source-over';
  }
  return { ...source, layer };
}

/** Draws a layer back onto the surface at its place, moved by (dx, dy) layer pixels. */
function composite<P, I>(
  s: Surface<P, I>,
  done: Rendered<P, I>,
  alpha: number,
  dx = 0,
  dy = 0,
  clip?: P,
): void {
  const ctx = s.ctx;
  ctx.save();
  if (clip) ctx.clip(clip);
  ctx.setTransform(1 / s.layerScale, 0, 0, 1 / s.layerScale, 0, 0);
  ctx.globalAlpha = alpha;
  // Bilinear: what a blurred layer drawn at a lower resolution needs, and the cheapest.
  ctx.imageSmoothingQuality = 'low';
  ctx.filter = 'none';
  const [left, top, right, bottom] = done.rect;
  ctx.drawImage(done.layer.image, left + dx, top + dy, right - left, bottom - top);
  ctx.restore();
  done.layer.release();
}

/**
 * A group with effects: its shadow (from a layer of its content, blurred and tinted, offset in
 * page axes), then its content, blurred through a layer when it has a blur, else drawn as usual
 * (vectors and real text stay vectors and real text in a PDF).
 */
export function drawGroupWithEffects<P, I>(s: Surface<P, I>, op: GroupOp, content: Draw<P, I>): void {
  const effects = op.effects ?? {};
  const unit = s.pageScale * s.layerScale;
  const m = currentMatrix(s.ctx);
  const toLayer: Matrix = m.map((v) => v * s.layerScale) as unknown as Matrix;
  const bounds = transformRect(toLayer, opRect({ ...op, effects: {} }, { deviceScale: unit }));
  const view: Rect = s.viewport.every(Number.isFinite)
    ? (s.viewport.map((v) => v * s.layerScale) as unknown as Rect)
    : UNBOUNDED_RECT;
  const blurSigma = (effects.blur ?? 0) * unit;
  const shadow = effects.shadow;
  if (shadow) {
    const sigma = Math.hypot((shadow.blur / 2) * unit, blurSigma);
    const reach = BLUR_REACH_SIGMAS * sigma;
    const dx = shadow.offsetX * unit;
    const dy = shadow.offsetY * unit;
    const area = intersectRect(growRect(bounds, reach), growRect(shiftRect(view, -dx, -dy), reach));
    const source = rasterise(s, area, sigma, content);
    if (source) composite(s, filtered(s, source, sigma, shadow.color), 1, dx, dy);
  }
  if (blurSigma <= 0) {
    content(s);
    return;
  }
  const reach = BLUR_REACH_SIGMAS * blurSigma;
  const source = rasterise(
    s,
    intersectRect(growRect(bounds, reach), growRect(view, reach)),
    blurSigma,
    content,
  );
  if (source) composite(s, filtered(s, source, blurSigma), 1);
}

/** Scales the lengths of a CSS filter string (its blur) for a lower-resolution layer. */
function scaledFilter(filter: string, factor: number): string {
  if (factor === 1) return filter;
  return filter.replace(/blur\(([\d.]+)px\)/, (_, px: string) => `blur(${Number(px) * factor}px)`);
}

/**
 * An image with a CSS filter: drawn through a layer (Skia's PDF backend would otherwise rasterise
 * the filter at its own resolution, and pixels of a filtered image are what the filter defines),
 * then clipped to its clip, or to its own rectangle so a blur never bleeds past it.
 */
export function drawFilteredImage<P, I>(
  s: Surface<P, I>,
  op: ImageOp,
  alpha: number,
  missing: () => never,
): void {
  const filter = op.filter ?? '';
  const m = currentMatrix(s.ctx);
  const toLayer: Matrix = m.map((v) => v * s.layerScale) as unknown as Matrix;
  const image: Rect = [op.x, op.y, op.x + op.width, op.y + op.height];
  const visible = op.clip ? intersectRect(image, pathDataBounds(op.clip)) : image;
  const view: Rect = s.viewport.every(Number.isFinite)
    ? (s.viewport.map((v) => v * s.layerScale) as unknown as Rect)
    : UNBOUNDED_RECT;
  // Image filter lengths were written in device pixels, which layer pixels are.
  const sigma = filterBlurPixels(filter);
  const reach = BLUR_REACH_SIGMAS * sigma;
  const area = intersectRect(growRect(transformRect(toLayer, visible), reach), growRect(view, reach));
  const done = rasterise(s, area, sigma, (layer) => {
    const drawable = layer.host.image(op.key, op.deviceWidth, op.deviceHeight);
    if (drawable === undefined) missing();
    layer.ctx.filter = scaledFilter(filter, layer.pageScale / (s.pageScale * s.layerScale));
    layer.ctx.drawImage(drawable, op.x, op.y, op.width, op.height);
    layer.ctx.filter = 'none';
  });
  if (!done) return;
  const clip = s.host.createPath(op.clip ?? rectPath(op.x, op.y, op.width, op.height));
  composite(s, done, alpha, 0, 0, clip);
}
