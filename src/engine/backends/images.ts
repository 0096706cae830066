/**
 * Decoded images for rendering, with bounded LRU caches: decoded sources by content hash (a
 * template's background is decoded once, not per render), and drawables at the device size an
 * op needs (photos pre-scaled once with high-quality filtering, SVGs rasterised at output
 * resolution). Image bombs are refused from the header, before any pixel is decoded.
 */
import { createHash } from 'node:crypto';
import { type Canvas, createCanvas, Image, ImageData } from '@napi-rs/canvas';
import sharp from 'sharp';
import {
  readSvg,
  SVG_MAX_FILTER_WORK,
  SvgError,
  type SvgFilterCost,
  svgFilterCost,
  svgFilterWork,
  svgIntrinsicSize,
  type XmlElement,
} from '../layout/index.ts';
import { renderLimits } from '../limits.ts';
import { cacheBytes } from './cache-limits.ts';
import { orientationSteps, turnsAQuarter } from './exif.ts';
import { classifyImageBytes, type ImageBytesKind } from './image-kind.ts';
import { decodeDataUri, ImageSourceError, type SourceBytes } from './image-sources.ts';
import { type JpegHeader, readJpegHeader } from './jpeg-header.ts';
import { Lru } from './lru.ts';
import { drawnOrientation } from './orientation.ts';

export interface LoadedImage {
  kind: 'bitmap' | 'svg';
  /** Content hash: the cache identity of these bytes. */
  id: string;
  width: number;
  height: number;
  /**
   * Decoded bitmap (lazily decoded by Skia on first draw, then kept), or a canvas holding pixels
   * decoded elsewhere (a video clip's frame, src/engine/video/clips.ts).
   */
  image?: Image | Canvas;
  /** The source bytes of a baseline-compatible 3-component JPEG, which a PDF can embed as they are. */
  jpeg?: Buffer;
  /** The source bytes of a JPEG or WebP, which libvips can decode at a reduced size (shrinksOnLoad). */
  shrinkable?: Buffer;
  /** SVG markup, rasterised per device size. */
  markup?: Buffer;
  /**
   * The EXIF orientation Skia applies when it decodes this bitmap (exif.ts): width and height are
   * already the turned size, and libvips must turn it the same way.
   */
  orientation?: number;
  /** What the SVG's filters cost per rasterised pixel (see svgFilterCost). */
  filterCost?: SvgFilterCost;
}

/** Refused before rasterising: the element is named and the render fails, nothing is skipped. */
export class ImageTooCostly extends ImageSourceError {}

/** SVG inside SVG (a data: URI image) is checked too, this many levels deep at most. */
const MAX_SVG_NESTING = 2;

export type Drawable = Image | Canvas;

const pixelsOf = (w: number, h: number): number => w * h * 4;

const decoded = new Lru<string, LoadedImage>({
  name: 'decoded-images',
  maxEntries: 64,
  maxWeight: cacheBytes('decodedImages'),
  weigh: (img) =>
    img.kind === 'bitmap'
      ? pixelsOf(img.width, img.height) + ((img.shrinkable ?? img.jpeg)?.byteLength ?? 0)
      : (img.markup?.byteLength ?? 0),
});

const drawables = new Lru<string, { drawable: Drawable; weight: number }>({
  name: 'drawables',
  maxEntries: 128,
  maxWeight: cacheBytes('drawables'),
  weigh: (entry) => entry.weight,
});

function readBitmapHeader(bytes: Buffer): Image {
  const image = new Image();
  image.src = bytes;
  const { width, height } = image;
  if (!width || !height)
    throw new ImageSourceError('the image could not be decoded (not a PNG, JPEG, WebP or GIF)');
  if (width * height > renderLimits.maxSourcePixels) {
    throw new ImageSourceError(`the image is too large to decode (${width}x${height} pixels)`);
  }
  return image;
}

/**
 * Checks the images an SVG embeds as data: URIs the way a top-level image is checked: classified
 * by bytes, bitmaps bounded by their header, SVGs parsed and checked in turn. Returns what the
 * nested SVGs' filters add.
 */
function checkEmbeddedImages(root: XmlElement, nesting: number): SvgFilterCost {
  let cost: SvgFilterCost = { fixed: 0, perScale: 0 };
  const visit = (node: XmlElement): void => {
    for (const [name, value] of Object.entries(node.attrs)) {
      const local = name.toLowerCase();
      if (!(local === 'href' || local.endsWith(':href')) || !/^\s*data:/i.test(value)) continue;
      const inner = decodeDataUri(value.trim());
      const kind = classifyImageBytes(inner.bytes);
      if (kind === null)
        throw new ImageSourceError('an image inside the SVG is not a PNG, JPEG, WebP, GIF or SVG');
      if (kind !== 'svg') readBitmapHeader(inner.bytes);
      else {
        if (nesting >= MAX_SVG_NESTING) throw new ImageSourceError('SVG images nested too deeply');
        const nested = parseCheckedSvg(inner.bytes, nesting + 1).filterCost;
        cost = { fixed: cost.fixed + nested.fixed, perScale: cost.perScale + nested.perScale };
      }
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
  return cost;
}

function parseCheckedSvg(bytes: Buffer, nesting: number) {
  try {
    const doc = readSvg(bytes.toString('utf8'));
    const own = svgFilterCost(doc.root);
    const nested = checkEmbeddedImages(doc.root, nesting);
    return {
      size: svgIntrinsicSize(doc),
      filterCost: { fixed: own.fixed + nested.fixed, perScale: own.perScale + nested.perScale },
    };
  } catch (error) {
    if (error instanceof SvgError)
      throw new ImageSourceError(`the image could not be decoded (invalid SVG: ${error.reason})`);
    throw error;
  }
}

function decodeSvg(id: string, bytes: Buffer): LoadedImage {
  const { size, filterCost } = parseCheckedSvg(bytes, 0);
  return { kind: 'svg', id, markup: bytes, filterCost, ...size };
}

/**
 * A bitmap, its header checked before any pixel is decoded (readBitmapHeader); Skia decodes the
 * pixels on first draw. Skia turns a JPEG or WebP by its EXIF orientation as it decodes it, yet
 * reports the stored size until then: a phone photo stored 4000×3000 and tagged to turn a quarter is
 * laid out 3000×4000 here, the size Skia will draw.
 */
function decodeBitmap(id: string, bytes: Buffer, kind: ImageBytesKind): LoadedImage {
  const image = readBitmapHeader(bytes);
  const header = kind === 'jpeg' ? readJpegHeader(bytes) : null;
  const orientation = drawnOrientation(bytes, header);
  const quarter = turnsAQuarter(orientation);
  return {
    kind: 'bitmap',
    id,
    width: quarter ? image.height : image.width,
    height: quarter ? image.width : image.height,
    image,
    ...(orientation !== 1 ? { orientation } : {}),
    ...(header && embedsAsItIs(header) ? { jpeg: bytes } : {}),
    ...(kind === 'jpeg' || kind === 'webp' ? { shrinkable: bytes } : {}),
  };
}

/**
 * A JPEG a PDF can embed as it is (DCTDecode, 8 bits a sample): a frame of SOF0-2 with 3 components,
 * no Adobe marker (which may mean CMYK or an inverted transform), and drawn as stored, since a PDF
 * reader decodes it as YCbCr to RGB, as every viewer does, and applies no EXIF orientation.
 */
function embedsAsItIs(header: JpegHeader): boolean {
  const { frameType, precision, components, adobe, orientation } = header;
  return frameType <= 0xc2 && precision === 8 && components === 3 && !adobe && orientation === 1;
}

/** A decoded image still in the cache, by content hash. */
export function decodedImage(id: string): LoadedImage | undefined {
  return decoded.get(id);
}

/**
 * Content hashes of the bytes this process holds across renders, by their memory (a render process
 * keeps an asset's bytes once shipped, shipped-assets.ts, and every render views the same memory):
 * a template's 566 KB photo is then not hashed again on every render (about 0.8 ms). Held bytes
 * are never written to, so the same memory means the same content.
 */
const hashes = new WeakMap<ArrayBufferLike, Map<string, string>>();

function contentHash(bytes: Buffer): string {
  const span = `${bytes.byteOffset}:${bytes.byteLength}`;
  let known = hashes.get(bytes.buffer);
  const found = known?.get(span);
  if (found) return found;
  const id = createHash('sha1').update(bytes).digest('hex');
  if (!known) {
    known = new Map();
    hashes.set(bytes.buffer, known);
  }
  known.set(span, id);
  return id;
}

/** Decodes (or finds in the cache) an image from its bytes. */
export function decodeImage(source: SourceBytes): LoadedImage {
  const id = contentHash(source.bytes);
  const known = decoded.get(id);
  if (known) return known;
  // The declared type is ignored: bytes decide, and markup always takes the checked SVG path.
  const kind = classifyImageBytes(source.bytes);
  if (kind === null) throw new ImageSourceError('the image is not a PNG, JPEG, WebP, GIF or SVG');
  const image = kind === 'svg' ? decodeSvg(id, source.bytes) : decodeBitmap(id, source.bytes, kind);
  decoded.set(id, image);
  return image;
}

/** Inline SVG markup to rasterise (an svg element beyond the vector subset). */
export function svgMarkupImage(markup: string): LoadedImage {
  return decodeSvg(createHash('sha1').update(markup).digest('hex'), Buffer.from(markup));
}

/** Device size bounded by the pixel limit, keeping the aspect ratio. */
function boundedSize(width: number, height: number): [number, number] {
  const pixels = width * height;
  const factor = pixels > renderLimits.maxPixels ? Math.sqrt(renderLimits.maxPixels / pixels) : 1;
  return [Math.max(1, Math.round(width * factor)), Math.max(1, Math.round(height * factor))];
}

function rasteriseSvg(image: LoadedImage, width: number, height: number): Drawable {
  const scale = Math.max(width / image.width, height / image.height);
  const work = image.filterCost ? svgFilterWork(image.filterCost, width * height, scale) : 0;
  if (work > SVG_MAX_FILTER_WORK) {
    throw new ImageTooCostly(
      `the SVG's filters are too costly at ${width}x${height} (about ${Math.round(work / 1e6)} million pixel passes; the limit is ${SVG_MAX_FILTER_WORK / 1e6} million)`,
    );
  }
  const raster = new Image();
  raster.width = width;
  raster.height = height;
  raster.src = image.markup ?? Buffer.alloc(0);
  if (!raster.width || !raster.height) throw new ImageSourceError('the SVG could not be rasterised');
  return raster;
}

/** A pre-scaled copy: drawing it 1:1 is a blit, and Skia's mipmapped scaling runs only once. */
function downscale(image: Image | Canvas, width: number, height: number): Drawable {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, 0, 0, width, height);
  return canvas;
}

/** Upscaling (or 1:1) draws the original; any reduction draws a copy pre-scaled to the device size. */
const isReduction = (image: LoadedImage, deviceWidth: number, deviceHeight: number): boolean =>
  deviceWidth < image.width || deviceHeight < image.height;

const drawableKey = (id: string, width: number, height: number): string => `${id}@${width}x${height}`;

/**
 * A JPEG or WebP drawn at half its size or less (in both directions) is decoded at a reduced size
 * straight from its compressed data (shrink-on-load: JPEG's DCT scaling by 1/2, 1/4 or 1/8, WebP's
 * scaled decoder) by libvips, then resampled to the device size (Lanczos 3) on libvips's threads.
 * Measured (docs/performance.md, "Shrink-on-load"): a 4000×3000 photo drawn at 1440×1080 took 75 ms
 * against 230-280 ms for Skia's whole decode and mipmapped scaling. A smaller reduction decodes
 * every coefficient anyway, and there Skia's path costs less CPU (it needs no copy of the pixels
 * into a canvas), so it keeps it.
 */
const shrinksOnLoad = (image: LoadedImage, deviceWidth: number, deviceHeight: number): boolean =>
  deviceWidth * 2 <= image.width && deviceHeight * 2 <= image.height;

/**
 * Pre-scales a JPEG or WebP that shrinks on load (above) before drawing, off the main thread.
 * Both convert through the embedded colour profile. Skia turns a photo by its EXIF orientation as
 * it reads it (exif.ts); libvips is told that turn explicitly, not left to read the tag its own way,
 * so both paths draw a photo the same way up (exif-orientation.test.ts). Bytes libvips refuses are
 * left to Skia's decoder at draw time (drawableFor), which decides how they fail.
 */
export async function prescale(image: LoadedImage, deviceWidth: number, deviceHeight: number): Promise<void> {
  if (image.kind !== 'bitmap' || !image.shrinkable || !shrinksOnLoad(image, deviceWidth, deviceHeight))
    return;
  const [width, height] = boundedSize(deviceWidth, deviceHeight);
  const key = drawableKey(image.id, width, height);
  if (drawables.get(key)) return;
  let pixels: Buffer;
  try {
    const decoder = sharp(image.shrinkable, { limitInputPixels: renderLimits.maxSourcePixels });
    const { mirror, degrees } = orientationSteps(image.orientation ?? 1);
    if (mirror) decoder.flop();
    if (degrees) decoder.rotate(degrees);
    pixels = await decoder
      .resize(width, height, { fit: 'fill' })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer();
  } catch {
    return;
  }
  if (pixels.byteLength !== pixelsOf(width, height)) return;
  const canvas = createCanvas(width, height);
  const data = new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  canvas.getContext('2d').putImageData(new ImageData(data, width, height), 0, 0);
  drawables.set(key, { drawable: canvas, weight: pixelsOf(width, height) });
}

/** What to draw for an op covering deviceWidth × deviceHeight output pixels. */
export function drawableFor(image: LoadedImage, deviceWidth: number, deviceHeight: number): Drawable {
  if (image.kind === 'bitmap' && image.image) {
    // Any reduction gets a cached copy at the device size, so a page blits it instead of
    // resampling the photo on every render (measured: most of a 1080² page's raster time went to
    // resampling a 1600×1200 photo drawn at 1440×1080).
    if (!isReduction(image, deviceWidth, deviceHeight)) return image.image;
  }
  const [width, height] = boundedSize(deviceWidth, deviceHeight);
  const key = drawableKey(image.id, width, height);
  const known = drawables.get(key);
  if (known) return known.drawable;
  const drawable =
    image.kind === 'svg' || !image.image
      ? rasteriseSvg(image, width, height)
      : downscale(image.image, width, height);
  drawables.set(key, { drawable, weight: pixelsOf(width, height) });
  return drawable;
}
