/**
 * Decoded images for rendering, with bounded LRU caches: decoded sources by content hash (a
 * template's background is decoded once, not per render), and drawables at the device size an
 * op needs (photos pre-scaled once with high-quality filtering, SVGs rasterised at output
 * resolution). Image bombs are refused from the header, before any pixel is decoded.
 */
import { createHash } from 'node:crypto';
import { type Canvas, createCanvas, Image } from '@napi-rs/canvas';
import { readSvg, SvgError, svgIntrinsicSize } from '../layout/index.ts';
import { renderLimits } from '../limits.ts';
import { ImageSourceError, type SourceBytes } from './image-sources.ts';
import { Lru } from './lru.ts';

export interface LoadedImage {
  kind: 'bitmap' | 'svg';
  /** Content hash: the cache identity of these bytes. */
  id: string;
  width: number;
  height: number;
  /** Decoded bitmap (lazily decoded by Skia on first draw, then kept). */
  image?: Image;
  /** SVG markup, rasterised per device size. */
  markup?: Buffer;
}

export type Drawable = Image | Canvas;

const pixelsOf = (w: number, h: number): number => w * h * 4;

const decoded = new Lru<string, LoadedImage>({
  maxEntries: 64,
  maxWeight: 160 * 1024 * 1024,
  weigh: (img) => (img.kind === 'bitmap' ? pixelsOf(img.width, img.height) : (img.markup?.byteLength ?? 0)),
});

const drawables = new Lru<string, { drawable: Drawable; weight: number }>({
  maxEntries: 128,
  maxWeight: 128 * 1024 * 1024,
  weigh: (entry) => entry.weight,
});

function looksLikeSvg(source: SourceBytes): boolean {
  if (source.mimeType.includes('svg')) return true;
  const head = source.bytes
    .subarray(0, 512)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<') && /<svg[\s>]/i.test(source.bytes.subarray(0, 4096).toString('utf8'));
}

function decodeSvg(id: string, source: SourceBytes): LoadedImage {
  try {
    const doc = readSvg(source.bytes.toString('utf8'));
    const size = svgIntrinsicSize(doc);
    return { kind: 'svg', id, markup: source.bytes, ...size };
  } catch (error) {
    if (error instanceof SvgError) throw new ImageSourceError(`invalid SVG image: ${error.reason}`);
    throw error;
  }
}

function decodeBitmap(id: string, source: SourceBytes): LoadedImage {
  const image = new Image();
  image.src = source.bytes;
  const { width, height } = image;
  if (!width || !height)
    throw new ImageSourceError('the image could not be decoded (not a PNG, JPEG, WebP or GIF)');
  if (width * height > renderLimits.maxSourcePixels) {
    throw new ImageSourceError(`the image is too large to decode (${width}x${height} pixels)`);
  }
  return { kind: 'bitmap', id, width, height, image };
}

/** Decodes (or finds in the cache) an image from its bytes. */
export function decodeImage(source: SourceBytes): LoadedImage {
  const id = createHash('sha1').update(source.bytes).digest('hex');
  const known = decoded.get(id);
  if (known) return known;
  const image = looksLikeSvg(source) ? decodeSvg(id, source) : decodeBitmap(id, source);
  decoded.set(id, image);
  return image;
}

/** Inline SVG markup to rasterise (an svg element beyond the vector subset). */
export function svgMarkupImage(markup: string): LoadedImage {
  return decodeSvg(createHash('sha1').update(markup).digest('hex'), {
    bytes: Buffer.from(markup),
    mimeType: 'image/svg+xml',
  });
}

/** Device size bounded by the pixel limit, keeping the aspect ratio. */
function boundedSize(width: number, height: number): [number, number] {
  const pixels = width * height;
  const factor = pixels > renderLimits.maxPixels ? Math.sqrt(renderLimits.maxPixels / pixels) : 1;
  return [Math.max(1, Math.round(width * factor)), Math.max(1, Math.round(height * factor))];
}

function rasteriseSvg(image: LoadedImage, width: number, height: number): Drawable {
  const raster = new Image();
  raster.width = width;
  raster.height = height;
  raster.src = image.markup ?? Buffer.alloc(0);
  if (!raster.width || !raster.height) throw new ImageSourceError('the SVG could not be rasterised');
  return raster;
}

/** A pre-scaled copy: drawing it 1:1 is a blit, and Skia's mipmapped scaling runs only once. */
function downscale(image: Image, width: number, height: number): Drawable {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, 0, 0, width, height);
  return canvas;
}

/** What to draw for an op covering deviceWidth × deviceHeight output pixels. */
export function drawableFor(image: LoadedImage, deviceWidth: number, deviceHeight: number): Drawable {
  if (image.kind === 'bitmap' && image.image) {
    // Upscaling (or nearly 1:1) draws the original; only real reductions get a cached copy.
    if (deviceWidth * deviceHeight >= image.width * image.height * 0.8) return image.image;
  }
  const [width, height] = boundedSize(deviceWidth, deviceHeight);
  const key = `${image.id}@${width}x${height}`;
  const known = drawables.get(key);
  if (known) return known.drawable;
  const drawable =
    image.kind === 'svg' || !image.image
      ? rasteriseSvg(image, width, height)
      : downscale(image.image, width, height);
  drawables.set(key, { drawable, weight: pixelsOf(width, height) });
  return drawable;
}

export function imageCacheStats(): {
  decoded: number;
  decodedBytes: number;
  drawables: number;
  drawableBytes: number;
} {
  return {
    decoded: decoded.size,
    decodedBytes: decoded.weight,
    drawables: drawables.size,
    drawableBytes: drawables.weight,
  };
}
