/**
 * The engine's browser entry point: the design model, layout and drawing, the code the server
 * renders with, for an editor drawing a page onto any Canvas 2D context. It imports only the pure
 * core (src/design, layout/, draw/); no `node:` module or native package is reachable from here
 * (browser.test.ts bundles it for the browser and draws with it in Chromium; Biome forbids such
 * imports). Loading images and fonts is the host's I/O and stays outside; assembling a page:
 *
 *   const parsed = parseDesignDocument(json);          // then applyModifications(doc, mods) if any
 *   const page = parsed.document.pages[0];             // after checking parsed.ok
 *   // load each pageImageSources(page) src into an ImageBitmap/HTMLImageElement, keyed by src
 *   const env = { measurer: createBrowserMeasurer(), fonts: bundledFontCatalog(),
 *                 images: sizesOf(loaded), deviceScale: scale * devicePixelRatio };
 *   const result = layoutPage(page, env);              // { ok, layout } or { ok: false, reason }
 *   // image ops keyed svgElementImageKey(id) want that SVG element's markup as an image
 *   drawPage(ctx, result.layout, createBrowserDrawHost(loaded));
 *
 * Fonts: load the bundled families (BUNDLED_FAMILIES, plus EMOJI_FAMILY) as FontFaces under the
 * same names before measuring, and make a new measurer when fonts change (it memoises widths).
 */
import type { DrawHost, Layer } from './draw/index.ts';
import { createCanvasMeasurer, drawOps } from './draw/index.ts';
import type { PageLayout, TextMeasurer } from './layout/index.ts';

export * from '../design/index.ts';
export {
  createCanvasMeasurer,
  type DrawContext,
  DrawFailure,
  type DrawHost,
  drawOps,
  type GradientLike,
  LAYER_PIXEL_BUDGET,
  type Layer,
  MAX_LAYER_PIXELS,
  type MeasuringContext,
  type TextMetricsLike,
} from './draw/index.ts';
export { barcodeProblem } from './layout/barcode.ts';
export {
  BUNDLED_FAMILIES,
  type BundledFamily,
  bundledFontCatalog,
  CJK_FAMILY,
  DEFAULT_FAMILY,
  type DrawOp,
  EMOJI_FAMILY,
  FALLBACK_FAMILIES,
  type FontCatalog,
  familyChain,
  fontShorthand,
  GENERIC_FAMILIES,
  type GroupOp,
  type ImageInfo,
  type ImageOp,
  type LayoutEnv,
  LayoutFailure,
  type LayoutResult,
  layoutPage,
  type PageLayout,
  type PathOp,
  pageImageSources,
  resolveFamily,
  svgElementImageKey,
  type TextMeasurer,
  type TextRunOp,
} from './layout/index.ts';

/** A browser 2D context: an on-screen canvas's or an OffscreenCanvas's. */
export type BrowserContext2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
export type BrowserDrawHost = DrawHost<Path2D, CanvasImageSource>;

/** An OffscreenCanvas layer for effects (a detached <canvas> where there is none). */
function browserLayer(
  width: number,
  height: number,
  host: BrowserDrawHost,
): Layer<Path2D, CanvasImageSource> {
  const canvas =
    typeof OffscreenCanvas === 'function'
      ? new OffscreenCanvas(width, height)
      : Object.assign(document.createElement('canvas'), { width, height });
  const ctx = canvas.getContext('2d') as BrowserContext2D | null;
  if (!ctx) throw new Error('this browser has no 2D canvas context');
  return {
    ctx,
    image: canvas,
    host,
    release: () => {
      canvas.width = 1;
      canvas.height = 1;
    },
  };
}

/**
 * A DrawHost over the browser's Path2D and images the caller already loaded, keyed like
 * ImageOp.key, with offscreen layers for effects (shadows, blurs, image filters).
 */
export function createBrowserDrawHost(images: ReadonlyMap<string, CanvasImageSource>): BrowserDrawHost {
  const host: BrowserDrawHost = {
    createPath: (d) => new Path2D(d),
    image: (key) => images.get(key),
    layer: (width, height) => browserLayer(width, height, host),
  };
  return host;
}

/** A text measurer on a scratch OffscreenCanvas (a detached <canvas> where there is none). */
export function createBrowserMeasurer(): TextMeasurer {
  const ctx =
    typeof OffscreenCanvas === 'function'
      ? new OffscreenCanvas(1, 1).getContext('2d')
      : document.createElement('canvas').getContext('2d');
  if (!ctx) throw new Error('this browser has no 2D canvas context');
  return createCanvasMeasurer(ctx);
}

/**
 * Draws a laid-out page in page units under the context's current transform (scale it for zoom
 * and device pixels first; the transform's scale is what effects scale their lengths by, and the
 * layout's deviceScale should equal it), with the image smoothing the server uses. Throws DrawFailure when an
 * image op's key has no loaded image. The context's state is restored afterwards.
 */
export function drawPage(ctx: BrowserContext2D, layout: PageLayout, host: BrowserDrawHost): void {
  ctx.save();
  try {
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    // Effects' layers are bounded by the canvas (its pixels are the device space, as on the server).
    const bounded = host.viewport
      ? host
      : { ...host, viewport: { width: ctx.canvas.width, height: ctx.canvas.height } };
    drawOps(ctx, layout.ops, bounded);
  } finally {
    ctx.restore();
  }
}
