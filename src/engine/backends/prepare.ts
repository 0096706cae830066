/**
 * The I/O half of rendering one page, shared by the raster and PDF backends: load the page's
 * images, run the pure layout with this process's fonts and measurer, and build the DrawHost
 * that resolves paths and images for the drawing step. Failures become RenderErrors naming the
 * page and element.
 */
import { createCanvas, Path2D } from '@napi-rs/canvas';
import { type Page, parseColor } from '../../design/index.ts';
import type { DrawHost } from '../draw/index.ts';
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
  svgMarkupImage,
} from './images.ts';
import { Lru } from './lru.ts';

let measurer: ReturnType<typeof createCanvasMeasurer> | null = null;

function processMeasurer(): ReturnType<typeof createCanvasMeasurer> {
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

function elementsUsing(page: Page, src: string): string | undefined {
  const element = page.elements.find(
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

async function loadImage(src: string, context: SourceContext): Promise<LoadedImage> {
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

/** Inline SVG elements that layout chose to rasterise get their markup registered as images. */
function addSvgRasters(page: Page, layout: PageLayout, loaded: Map<string, LoadedImage>): void {
  const keys = collectImageKeys(layout.ops, new Set());
  for (const element of page.elements) {
    if (element.type !== 'svg' || !keys.has(svgElementImageKey(element.id))) continue;
    try {
      loaded.set(svgElementImageKey(element.id), svgMarkupImage(element.svg));
    } catch (error) {
      if (error instanceof ImageSourceError) throw elementFailure(page.id, element.id, error.reason);
      throw error;
    }
  }
}

export async function preparePage(
  page: Page,
  fonts: FontCatalog,
  context: SourceContext,
  deviceScale: number,
): Promise<PreparedPage> {
  const loaded = await loadPageImages(page, context);
  const images = new Map<string, ImageInfo>();
  for (const [key, image] of loaded) images.set(key, { width: image.width, height: image.height });
  const env: LayoutEnv = { measurer: processMeasurer(), fonts, images, deviceScale };
  const result = layoutPage(page, env);
  if (!result.ok) throw elementFailure(page.id, result.elementId, result.reason);
  addSvgRasters(page, result.layout, loaded);
  const host: DrawHost<Path2D, Drawable> = {
    createPath: (d) => new Path2D(d),
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
  const background = typeof page.background === 'string' ? parseColor(page.background) : null;
  const imageIds = new Map([...loaded].map(([key, image]) => [key, image.id]));
  return { layout: result.layout, host, opaque: background?.a === 1, imageIds, images: loaded };
}
