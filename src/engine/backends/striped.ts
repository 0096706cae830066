/**
 * JPEG and PNG output in strips, whole or incremental. The page is always drawn whole (a few ms):
 * drawing only a clipped band changes Skia's anti-aliasing of paths that cross the clip, so its
 * pixels would not match a whole-page render (measured: up to 94 bytes of a band differ). What is
 * saved is the encoding, most of a render's cost: with a `baseKey`, the previous render of the
 * same key is the base, its top-level ops are compared with this one's (op-bounds.ts), and only
 * the strips that a changed op touched, before or after, are read back and encoded; the others
 * are reused as encoded. Without a base, every strip is encoded, in parallel.
 */
import { createHash } from 'node:crypto';
import type { Canvas } from '@napi-rs/canvas';
import { cacheBytes } from './cache-limits.ts';
import { encodeJpegStrip, type JpegStrip, joinJpeg } from './encode/jpeg-strips.ts';
import { encodePngBand, joinPng, type PngBand } from './encode/png-bands.ts';
import { consecutiveRuns, STRIP_ROWS, stripsOf } from './encode/strips.ts';
import { Lru } from './lru.ts';
import { footprintOf, type OpFootprint } from './op-bounds.ts';
import type { PreparedPage } from './prepare.ts';

export interface StripedOptions {
  format: 'jpeg' | 'png';
  scale: number;
  quality: number;
  /** Every pixel is opaque (JPEG always is: it is drawn over white). */
  opaque: boolean;
  /** Names the renders whose outputs may serve as each other's base (same template page and settings). */
  baseKey?: string;
  /**
   * Told, before the changed strips are encoded, the bytes the file will start with: the header
   * and the base's strips before the first changed one (see LeadingBytes in render.ts).
   */
  onLeadingBytes?: (bytes: Buffer) => void;
}

type EncodedStrip = JpegStrip | PngBand;

interface Base {
  width: number;
  height: number;
  opaque: boolean;
  footprints: OpFootprint[];
  strips: EncodedStrip[];
  bytes: number;
}

export interface StripedResult {
  bytes: Buffer;
  /** Strips encoded by this render, and all strips of the page. */
  encodedStrips: number;
  totalStrips: number;
}

const bases = new Lru<string, Base>({
  name: 'render-bases',
  maxEntries: 1024,
  maxWeight: cacheBytes('renderBases'),
  weigh: (base) => base.bytes,
});

/**
 * Base keys → the image set of the latest base stored under each: the fallback when no base of
 * the same images exists (bounded like the bases; an evicted base is simply not found).
 */
const latestImages = new Lru<string, string>({ maxEntries: 1024 });

/**
 * The images a page draws, as one key part: bases are kept per image set, so a render with a new
 * photo does not replace the base the template's own photo renders find (measured in
 * docs/performance.md: headline renders interleaved with new-photo renders of one template
 * re-encoded every strip).
 */
function imageSetOf(prepared: PreparedPage): string {
  const ids = [...new Set(prepared.imageIds.values())].sort().join(',');
  return createHash('sha1').update(ids).digest('hex');
}

const sizeOf = (strip: EncodedStrip): number =>
  'chunk' in strip ? strip.chunk.length : strip.header.length + strip.entropy.length;

/** Strip indexes a changed op touches, before (base) or after (this render); null: all of them. */
function dirtyStrips(base: Base | undefined, now: OpFootprint[], stripCount: number): number[] | null {
  if (!base || base.footprints.length !== now.length) return null;
  const dirty: number[] = [];
  const mark = ([first, last]: [number, number]) => {
    if (last < first) return;
    const from = Math.max(0, Math.floor(first / STRIP_ROWS));
    const to = Math.min(stripCount - 1, Math.floor(last / STRIP_ROWS));
    for (let index = from; index <= to; index++) dirty.push(index);
  };
  now.forEach((footprint, index) => {
    const before = base.footprints[index] as OpFootprint;
    if (before.signature === footprint.signature) return;
    mark(before.rows);
    mark(footprint.rows);
  });
  return dirty;
}

function encodeStrip(
  rgba: Uint8Array,
  width: number,
  rows: number,
  options: StripedOptions,
): Promise<EncodedStrip> {
  return options.format === 'jpeg'
    ? encodeJpegStrip(rgba, width, rows, { quality: options.quality })
    : encodePngBand(rgba, width, rows, options.opaque);
}

/**
 * Strips read back and encoded together: all of a 1080² page's at once (parallel on every libuv
 * thread), while a 50-megapixel page holds at most this many strips' pixels and filtered rows at a
 * time, not the whole page's twice over.
 */
const STRIPS_AT_ONCE = 16;

/** Reads back and encodes the given strips of the drawn canvas, in parallel batches. */
async function encodeStrips(
  canvas: Canvas,
  indexes: readonly number[],
  options: StripedOptions,
): Promise<Map<number, EncodedStrip>> {
  const { width, height } = canvas;
  const strips = stripsOf(height);
  const ctx = canvas.getContext('2d');
  const encoded = new Map<number, EncodedStrip>();
  const batches = consecutiveRuns(indexes).flatMap((run) =>
    Array.from({ length: Math.ceil(run.length / STRIPS_AT_ONCE) }, (_, i) =>
      run.slice(i * STRIPS_AT_ONCE, (i + 1) * STRIPS_AT_ONCE),
    ),
  );
  for (const batch of batches) {
    const top = (strips[batch[0] ?? 0] as { top: number }).top;
    const last = strips[batch.at(-1) ?? 0] as { top: number; rows: number };
    // Unpremultiplied RGBA, as both encoders want (for an opaque page it equals the raw pixels).
    const pixels = ctx.getImageData(0, top, width, last.top + last.rows - top).data;
    const jobs = batch.map((index) => {
      const strip = strips[index] as { top: number; rows: number };
      const start = (strip.top - top) * width * 4;
      const rgba = new Uint8Array(pixels.buffer, pixels.byteOffset + start, strip.rows * width * 4);
      return encodeStrip(rgba, width, strip.rows, options).then((done) => encoded.set(index, done));
    });
    await Promise.all(jobs);
  }
  return encoded;
}

/** Encodes the drawn `canvas` as the options say, reusing a base's strips where nothing changed. */
export async function encodeStriped(
  canvas: Canvas,
  prepared: PreparedPage,
  options: StripedOptions,
): Promise<StripedResult> {
  const { width, height } = canvas;
  const stripCount = stripsOf(height).length;
  const footprints = prepared.layout.ops.map((op) => footprintOf(op, options.scale, prepared.imageIds));
  const key = options.baseKey
    ? `${options.baseKey}\u0000${options.format}\u0000${options.quality}\u0000${options.scale}`
    : undefined;
  const images = key ? imageSetOf(prepared) : '';
  // The base of the same images, else the latest of any images (a new product photo in a box
  // still reuses the strips around it).
  const latest = key ? latestImages.get(key) : undefined;
  const found = key
    ? (bases.get(`${key}\u0000${images}`) ?? (latest ? bases.get(`${key}\u0000${latest}`) : undefined))
    : undefined;
  const base =
    found && found.width === width && found.height === height && found.opaque === options.opaque
      ? found
      : undefined;
  const dirty = dirtyStrips(base, footprints, stripCount);
  const join = (strips: EncodedStrip[], before?: number) =>
    options.format === 'jpeg'
      ? joinJpeg(strips as JpegStrip[], width, height, STRIP_ROWS, before)
      : joinPng(strips as PngBand[], width, height, options.opaque, before);
  // A loop, not Math.min(...dirty): a page of thousands of changed tall ops lists more strips than
  // a call can take arguments.
  let firstChanged = stripCount;
  for (const index of dirty ?? []) if (index < firstChanged) firstChanged = index;
  if (base && dirty && firstChanged > 0) options.onLeadingBytes?.(join(base.strips, firstChanged));
  const all = Array.from({ length: stripCount }, (_, index) => index);
  const encoded = await encodeStrips(canvas, dirty ?? all, options);
  const strips = all.map((index) => encoded.get(index) ?? (base?.strips[index] as EncodedStrip));
  const bytes = join(strips);
  if (key) {
    const size = strips.reduce((sum, strip) => sum + sizeOf(strip), 0);
    bases.set(`${key}\u0000${images}`, {
      width,
      height,
      opaque: options.opaque,
      footprints,
      strips,
      bytes: size,
    });
    latestImages.set(key, images);
  }
  return { bytes, encodedStrips: encoded.size, totalStrips: stripCount };
}
