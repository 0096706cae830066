/**
 * Raster backend: draws a prepared page onto an @napi-rs/canvas surface at `scale` and encodes it.
 * JPEG and PNG are encoded in strips (striped.ts): in parallel, and with a base, only the strips
 * a change touched. WebP (thumbnails) is encoded whole by sharp. See docs/performance.md for the
 * figures behind each setting.
 */
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { MIME_TYPES } from '../types.ts';
import { drawPreparedPage } from './draw-context.ts';
import type { PreparedPage } from './prepare.ts';
import { encodeStriped } from './striped.ts';

export interface RasterOptions {
  format: 'png' | 'jpeg' | 'webp';
  scale: number;
  quality: number;
  /** Renders of the same template page with the same settings share it: see striped.ts. */
  baseKey?: string;
  /** The bytes the file will start with, when known before it is encoded (striped.ts). */
  onLeadingBytes?: (bytes: Buffer) => void;
}

export interface EncodedImage {
  bytes: Uint8Array;
  width: number;
  height: number;
  mimeType: string;
}

/** Draws the page's ops; shared with tests that compare layouts without encoding. */
export function drawPageOnto(
  canvas: Canvas,
  prepared: PreparedPage,
  pageId: string,
  scale: number,
  opaque: boolean,
): void {
  const ctx = canvas.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (opaque) {
    // JPEG has no alpha: transparent areas would turn black, so they sit on white as in a browser.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }
  ctx.scale(scale, scale);
  drawPreparedPage(ctx, prepared, pageId, { width: canvas.width, height: canvas.height, layerScale: 1 });
}

/** WebP, whole, by sharp (thumbnails; speed first). */
function encodeWebp(canvas: Canvas, quality: number, opaque: boolean): Promise<Uint8Array> {
  const { width, height } = canvas;
  // Skia keeps premultiplied RGBA; for an opaque page that equals straight RGBA and the alpha can go.
  const input = sharp(canvas.data(), { raw: { width, height, channels: 4, premultiplied: !opaque } });
  return (opaque ? input.removeAlpha() : input).webp({ quality, effort: 1 }).toBuffer();
}

async function encode(
  canvas: Canvas,
  prepared: PreparedPage,
  options: RasterOptions,
  opaque: boolean,
): Promise<Uint8Array> {
  if (options.format === 'webp') return encodeWebp(canvas, options.quality, opaque);
  const striped = await encodeStriped(canvas, prepared, {
    format: options.format,
    scale: options.scale,
    quality: options.quality,
    opaque,
    ...(options.baseKey ? { baseKey: options.baseKey } : {}),
    ...(options.onLeadingBytes ? { onLeadingBytes: options.onLeadingBytes } : {}),
  });
  return striped.bytes;
}

/**
 * Canvases up to CACHED_CANVAS_PIXELS are kept per size and reused (at most 4, so at most 64 MB);
 * one in use by a render is not handed to another (a concurrent one gets a fresh canvas). Larger canvases are made for one render
 * and their surface is released right after it (setting the size to 1×1 frees Skia's pixels at
 * once; V8 does not see that native memory, so waiting for the GC could keep hundreds of MB
 * alive). Reusing a big canvas saves little (allocation is a small share of drawing and encoding
 * it), while keeping one costs up to 200 MB (50 megapixels) for as long as the render process
 * lives: after each of three 49-megapixel renders a process held 520, 718 and 536 MB with the
 * canvas kept, 334, 529 and 347 MB with it released.
 */
const CACHED_CANVAS_PIXELS = 4_000_000;
const canvases = new Map<string, Canvas>();
/** Cached canvases a render is using: striped encoding reads a tall page back across awaits. */
const inUse = new Set<Canvas>();

function canvasOf(width: number, height: number): Canvas {
  if (width * height > CACHED_CANVAS_PIXELS) return createCanvas(width, height);
  const key = `${width}x${height}`;
  let canvas = canvases.get(key);
  if (canvas && inUse.has(canvas)) return createCanvas(width, height);
  if (!canvas) {
    if (canvases.size >= 4) canvases.clear();
    canvas = createCanvas(width, height);
    canvases.set(key, canvas);
  }
  inUse.add(canvas);
  return canvas;
}

function release(canvas: Canvas): void {
  inUse.delete(canvas);
  if (canvas.width * canvas.height <= CACHED_CANVAS_PIXELS) return;
  canvas.width = 1;
  canvas.height = 1;
}

export async function renderRasterPage(
  prepared: PreparedPage,
  pageId: string,
  options: RasterOptions,
): Promise<EncodedImage> {
  const width = Math.max(1, Math.round(prepared.layout.width * options.scale));
  const height = Math.max(1, Math.round(prepared.layout.height * options.scale));
  const canvas = canvasOf(width, height);
  const opaque = options.format === 'jpeg' || prepared.opaque;
  let bytes: Uint8Array;
  try {
    drawPageOnto(canvas, prepared, pageId, options.scale, options.format === 'jpeg');
    bytes = await encode(canvas, prepared, options, opaque);
  } finally {
    release(canvas);
  }
  return { bytes, width, height, mimeType: MIME_TYPES[options.format] };
}
