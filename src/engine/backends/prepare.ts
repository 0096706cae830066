/**
 * The I/O half of rendering one page, shared by the raster and PDF backends: load the page's
 * images, run the pure layout with this process's fonts and measurer, and build the DrawHost
 * that resolves paths and images for the drawing step. Failures become RenderErrors naming the
 * page and element.
 */
import { createCanvas, Path2D } from '@napi-rs/canvas';
import {
  isImageBackground,
  type Page,
  type PageBackground,
  pageElements,
  parseColor,
  parseVideoFrameKey,
  videoFrameKey,
  walkElements,
} from '../../design/index.ts';
import type { DrawHost, Layer } from '../draw/index.ts';
import { createCanvasMeasurer } from '../draw/index.ts';
import { elementFailure } from '../errors.ts';
import {
  type FontCatalog,
  type ImageInfo,
  type LayoutEnv,
  layoutPage,
  type PageLayout,
  pageImageSources,
  svgElementImageKey,
  type TextLayout,
} from '../layout/index.ts';
import type { DrawOp } from '../layout/types.ts';
import { cacheBytes } from './cache-limits.ts';
import { ImageSourceError, readImageSource, type SourceContext } from './image-sources.ts';
import {
  type Drawable,
  decodedImage,
  decodeImage,
  drawableFor,
  ImageTooCostly,
  type LoadedImage,
  prescale,
  svgMarkupImage,
} from './images.ts';
import { Lru } from './lru.ts';

let measurer: ReturnType<typeof createCanvasMeasurer> | null = null;

/** The process's one text measurer (its width cache is shared by every render and preflight). */
export function processMeasurer(): ReturnType<typeof createCanvasMeasurer> {
  measurer ??= createCanvasMeasurer(createCanvas(1, 1).getContext('2d'));
  return measurer;
}

export interface PreparedPage {
  layout: PageLayout;
  /** The background is an opaque colour, so every output pixel is opaque. */
  opaque: boolean;
  host: DrawHost<Path2D, Drawable>;
  /** Image key → content hash of the bytes behind it (what an incremental render compares). */
  imageIds: ReadonlyMap<string, string>;
  /** Image key → the loaded image (the PDF backend embeds JPEG sources as they are). */
  images: ReadonlyMap<string, LoadedImage>;
}

/** The first element (groups' children included) drawing the image `src`, to name in a failure. */
function elementsUsing(page: Page, src: string): string | undefined {
  const element = pageElements(page).find(
    (el) =>
      (el.type === 'image' && el.src === src) || (el.type === 'svg' && svgElementImageKey(el.id) === src),
  );
  return element?.id;
}

/**
 * Data URIs seen recently, by their text → the content hash of their bytes: a template's embedded
 * background is then neither base64-decoded nor hashed again on the next render, while the pixels
 * stay in (and are bounded by) the decoded-image cache. Weighed by the text's length.
 */
const dataUriIds = new Lru<string, { id: string; textLength: number }>({
  name: 'data-uri-index',
  maxEntries: 256,
  maxWeight: cacheBytes('dataUris'),
  weigh: (entry) => entry.textLength,
});

/** An image source, loaded and decoded (cached); throws ImageSourceError when it cannot be. */
export async function loadImage(src: string, context: SourceContext): Promise<LoadedImage> {
  const kept = context.loadedImages?.get(src);
  if (kept) return kept;
  const image = await readImage(src, context);
  context.loadedImages?.set(src, image);
  return image;
}

async function readImage(src: string, context: SourceContext): Promise<LoadedImage> {
  const isData = src.startsWith('data:');
  const knownId = isData ? dataUriIds.get(src)?.id : undefined;
  const known = knownId ? decodedImage(knownId) : undefined;
  if (known) return known;
  const image = decodeImage(await readImageSource(src, context));
  if (isData) dataUriIds.set(src, { id: image.id, textLength: src.length });
  return image;
}

async function loadPageImages(page: Page, context: SourceContext): Promise<Map<string, LoadedImage>> {
  const loaded = new Map<string, LoadedImage>();
  await Promise.all(
    pageImageSources(page).map(async (src) => {
      try {
        loaded.set(src, await loadImage(src, context));
      } catch (error) {
        if (!(error instanceof ImageSourceError)) throw error;
        throw elementFailure(page.id, elementsUsing(page, src), error.reason);
      }
    }),
  );
  return loaded;
}

function collectImageKeys(ops: readonly DrawOp[], into: Set<string>): Set<string> {
  for (const op of ops) {
    if (op.op === 'image') into.add(op.key);
    else if (op.op === 'group') collectImageKeys(op.children, into);
  }
  return into;
}

function imageOps(ops: readonly DrawOp[], into: Extract<DrawOp, { op: 'image' }>[] = []) {
  for (const op of ops) {
    if (op.op === 'image') into.push(op);
    else if (op.op === 'group') imageOps(op.children, into);
  }
  return into;
}

/**
 * Pre-scales the page's JPEG and WebP images to the sizes they are drawn at, all at once on
 * libvips's threads (images.ts `prescale`), so drawing blits them. For raster output: a PDF embeds
 * its photos' own bytes instead.
 */
export async function prescaleImages(prepared: PreparedPage): Promise<void> {
  await Promise.all(
    imageOps(prepared.layout.ops).map((op) => {
      const image = prepared.images.get(op.key);
      return image ? prescale(image, op.deviceWidth, op.deviceHeight) : undefined;
    }),
  );
}

/** Inline SVG elements that layout chose to rasterise get their markup registered as images. */
function addSvgRasters(page: Page, layout: PageLayout, loaded: Map<string, LoadedImage>): void {
  const keys = collectImageKeys(layout.ops, new Set());
  for (const element of pageElements(page)) {
    if (element.type !== 'svg' || !keys.has(svgElementImageKey(element.id))) continue;
    try {
      loaded.set(svgElementImageKey(element.id), svgMarkupImage(element.svg));
    } catch (error) {
      if (error instanceof ImageSourceError) throw elementFailure(page.id, element.id, error.reason);
      throw error;
    }
  }
}

/** Visible video elements (in visible groups) → the image key layout draws each one's frame under. */
function videoElements(page: Page): { elementId: string; src: string; key: string }[] {
  const found = [];
  for (const { element, ancestors } of walkElements(page.elements)) {
    if (element.type !== 'video' || !element.visible || element.opacity <= 0) continue;
    if (!ancestors.every((group) => group.visible && group.opacity > 0)) continue;
    found.push({
      elementId: element.id,
      src: element.src,
      key: videoFrameKey(element.src, element.trimStartMs ?? 0),
    });
  }
  return found;
}

function videoSource(page: Page, elementId: string, context: SourceContext) {
  if (!context.videoFrames) throw elementFailure(page.id, elementId, 'video clips cannot be drawn here');
  return context.videoFrames;
}

/** Each video element's clip size under its frame's key, for layout to fit it like an image. */
async function clipSizes(page: Page, context: SourceContext, into: Map<string, ImageInfo>): Promise<void> {
  for (const { elementId, src, key } of videoElements(page)) {
    try {
      into.set(key, await videoSource(page, elementId, context).clipSize(src.slice('asset:'.length)));
    } catch (error) {
      if (error instanceof ImageSourceError) throw elementFailure(page.id, elementId, error.reason);
      throw error;
    }
  }
}

/** Video frame image ops in drawing order, with the element that draws each (its group op's). */
function videoFrameOps(
  ops: readonly DrawOp[],
  elementId: string | undefined,
  into: { key: string; elementId: string; width: number; height: number }[],
) {
  for (const op of ops) {
    if (op.op === 'group') videoFrameOps(op.children, op.elementId ?? elementId, into);
    else if (op.op === 'image' && elementId && parseVideoFrameKey(op.key))
      into.push({ key: op.key, elementId, width: op.deviceWidth, height: op.deviceHeight });
  }
  return into;
}

/** Decodes the frame each video element shows, at the size it is drawn (the larger one for a shared key). */
async function addVideoFrames(
  page: Page,
  layout: PageLayout,
  loaded: Map<string, LoadedImage>,
  context: SourceContext,
) {
  const wanted = new Map<string, { elementId: string; width: number; height: number }>();
  for (const op of videoFrameOps(layout.ops, undefined, [])) {
    const known = wanted.get(op.key);
    wanted.set(op.key, {
      elementId: known?.elementId ?? op.elementId,
      width: Math.max(known?.width ?? 0, op.width),
      height: Math.max(known?.height ?? 0, op.height),
    });
  }
  await Promise.all(
    [...wanted].map(async ([key, { elementId, width, height }]) => {
      const { assetId, clipMs } = parseVideoFrameKey(key) as { assetId: string; clipMs: number };
      try {
        const frame = await videoSource(page, elementId, context).frame({
          assetId,
          clipMs,
          elementId,
          deviceWidth: width,
          deviceHeight: height,
        });
        loaded.set(key, frame);
      } catch (error) {
        if (error instanceof ImageSourceError) throw elementFailure(page.id, elementId, error.reason);
        throw error;
      }
    }),
  );
}

/** A Skia raster layer for effects; drawing into it uses the page's own host. */
function skiaLayer(width: number, height: number, host: DrawHost<Path2D, Drawable>): Layer<Path2D, Drawable> {
  const canvas = createCanvas(width, height);
  return {
    ctx: canvas.getContext('2d'),
    image: canvas,
    host,
    release: () => {
      // Setting the size frees Skia's pixels at once; the GC does not see that native memory.
      canvas.width = 1;
      canvas.height = 1;
    },
  };
}

/** An opaque colour, or a gradient of opaque stops, covers every pixel of the page. */
function opaqueBackground(background: PageBackground): boolean {
  if (isImageBackground(background)) return false;
  const colors = typeof background === 'string' ? [background] : background.stops.map((stop) => stop.color);
  return colors.every((color) => parseColor(color)?.a === 1);
}

export async function preparePage(
  page: Page,
  fonts: FontCatalog,
  context: SourceContext,
  deviceScale: number,
  /** Motion: elements scaled about their centre at this time (design/timeline.ts `pageAtTime`). */
  scales?: ReadonlyMap<string, number>,
  /** Filled with each text element's layout (preflight), when given. */
  textLayouts?: Map<string, TextLayout>,
): Promise<PreparedPage> {
  const loaded = await loadPageImages(page, context);
  const images = new Map<string, ImageInfo>();
  for (const [key, image] of loaded) images.set(key, { width: image.width, height: image.height });
  await clipSizes(page, context, images);
  const env: LayoutEnv = {
    measurer: processMeasurer(),
    fonts,
    images,
    deviceScale,
    ...(scales && scales.size > 0 ? { scales } : {}),
    ...(textLayouts ? { textLayouts } : {}),
  };
  const result = layoutPage(page, env);
  if (!result.ok) throw elementFailure(page.id, result.elementId, result.reason);
  addSvgRasters(page, result.layout, loaded);
  await addVideoFrames(page, result.layout, loaded, context);
  const host: DrawHost<Path2D, Drawable> = {
    createPath: (d) => new Path2D(d),
    layer: (width, height) => skiaLayer(width, height, host),
    image: (key, deviceWidth, deviceHeight) => {
      const image = loaded.get(key);
      if (!image) return undefined;
      try {
        return drawableFor(image, deviceWidth, deviceHeight);
      } catch (error) {
        // A refused cost fails the render naming the element; other misses leave the image out.
        if (error instanceof ImageTooCostly)
          throw elementFailure(page.id, elementsUsing(page, key), error.reason);
        if (error instanceof ImageSourceError) return undefined;
        throw error;
      }
    },
  };
  const imageIds = new Map([...loaded].map(([key, image]) => [key, image.id]));
  return { layout: result.layout, host, opaque: opaqueBackground(page.background), imageIds, images: loaded };
}
