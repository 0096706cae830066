/**
 * Banded PNG: one zlib stream (RFC 1950) split into independently compressed bands of rows, each
 * band its own IDAT chunk (PNG §11.2.4: the IDAT data is the concatenation of the chunks). A band
 * filters every row with Sub (PNG §9.2), which never looks at the row above, and its deflate data
 * (RFC 1951) ends with a sync flush, so it refers to nothing before it and ends byte-aligned; the
 * stream's Adler-32 is combined from the bands' own. Any band can be re-encoded and spliced.
 * Compression runs in libuv's threads, so a page's bands deflate in parallel.
 */
import { constants, crc32, createDeflate } from 'node:zlib';

export interface PngBand {
  /** The band's whole IDAT chunk (length, type, data, CRC). */
  chunk: Buffer;
  adler: number;
  /** Bytes of filtered rows the band holds (for combining Adler-32). */
  length: number;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
/** The zlib header: deflate, 32 KB window, no dictionary (0x7801 is a multiple of 31). */
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);
/** What a Z_FINISH after a sync flush writes: an empty final fixed-Huffman block. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
const ADLER_BASE = 65521;

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

/** The high bit of each byte of a 32-bit word, for subtracting four bytes at once. */
const HIGH_BITS = 0x80808080 | 0;
/** Typed arrays read words in the machine's order; the word loop below assumes little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Sub-filtered rows from unpremultiplied RGBA: RGB (3 bytes a pixel) when opaque, else RGBA.
 * Each pixel is read as one 32-bit word and its four bytes minus its left neighbour's, each modulo
 * 256, come from one subtraction with the bytes' high bits set apart (Hacker's Delight 2-18, SWAR):
 * a third faster than a byte at a time (docs/performance.md, "Strips of 64 rows").
 */
export function subFilter(rgba: Uint8Array, width: number, rows: number, opaque: boolean): Buffer {
  if (!LITTLE_ENDIAN || rgba.byteOffset % 4 !== 0) return subFilterBytes(rgba, width, rows, opaque);
  const bpp = opaque ? 3 : 4;
  const stride = width * bpp + 1;
  const out = Buffer.allocUnsafe(rows * stride);
  const pixels = new Int32Array(rgba.buffer, rgba.byteOffset, rows * width);
  for (let y = 0; y < rows; y++) {
    let o = y * stride;
    let i = y * width;
    const end = i + width;
    out[o++] = 1;
    let left = 0;
    for (; i < end; i++) {
      const pixel = pixels[i] as number;
      const sub = ((pixel | HIGH_BITS) - (left & ~HIGH_BITS)) ^ ((pixel ^ ~left) & HIGH_BITS);
      out[o] = sub;
      out[o + 1] = sub >>> 8;
      out[o + 2] = sub >>> 16;
      if (opaque) o += 3;
      else {
        out[o + 3] = sub >>> 24;
        o += 4;
      }
      left = pixel;
    }
  }
  return out;
}

/** The same a byte at a time, for big-endian machines and unaligned pixels. */
export function subFilterBytes(rgba: Uint8Array, width: number, rows: number, opaque: boolean): Buffer {
  const bpp = opaque ? 3 : 4;
  const stride = width * bpp + 1;
  const out = Buffer.allocUnsafe(rows * stride);
  for (let y = 0; y < rows; y++) {
    let o = y * stride;
    let i = y * width * 4;
    out[o++] = 1;
    let r = 0;
    let g = 0;
    let b = 0;
    let a = 0;
    for (let x = 0; x < width; x++, i += 4) {
      const R = rgba[i] as number;
      const G = rgba[i + 1] as number;
      const B = rgba[i + 2] as number;
      out[o++] = (R - r) & 255;
      out[o++] = (G - g) & 255;
      out[o++] = (B - b) & 255;
      if (!opaque) {
        const A = rgba[i + 3] as number;
        out[o++] = (A - a) & 255;
        a = A;
      }
      r = R;
      g = G;
      b = B;
    }
  }
  return out;
}

/**
 * Below this share of bytes inside runs (a byte equal to both its neighbours) in the filtered rows,
 * a band is Huffman-coded alone: run-length matching finds too little in it to pay for its search.
 * A photograph, or a translucent card over one, has short runs even where Sub leaves many zeros;
 * flat designs are mostly runs, which run-length matching writes up to seven times smaller. Chosen
 * over every band of the goldens and the benchmark post; between 0.35 and 0.5 the sums barely move
 * (docs/performance.md, "PNG bands: Huffman coding chosen by runs": the post's bands 9 % faster to
 * code than by the share of zero bytes this replaced, the goldens' 4 % faster and no larger).
 */
const HUFFMAN_RUN_SHARE = 0.4;
/** Every 61st byte is looked at: odd, so samples fall on every channel, and about 1 % of them. */
const SAMPLE_STEP = 61;

/** zlib's strategy for these filtered rows: Huffman coding alone unless runs are common. */
export function strategyFor(filtered: Uint8Array): number {
  let inRuns = 0;
  let samples = 0;
  for (let i = 1; i < filtered.length - 1; i += SAMPLE_STEP, samples++) {
    const byte = filtered[i];
    if (byte === filtered[i - 1] && byte === filtered[i + 1]) inRuns++;
  }
  return inRuns < samples * HUFFMAN_RUN_SHARE ? constants.Z_HUFFMAN_ONLY : constants.Z_RLE;
}

/**
 * zlib's settings for a band (its strategy aside). Level 1: run-length matching folds the zero runs
 * Sub leaves on flat colour; photographic bands are Huffman-coded alone (strategyFor). memLevel 9
 * doubles the symbols a block holds (fewer blocks, fewer Huffman trees): the goldens' bands code
 * 11 % faster, no larger.
 */
export const BAND_DEFLATE = { level: 1, memLevel: 9 } as const;

/** Deflates filtered rows with a sync flush; zlib's trailer gives the band's Adler-32. */
function deflateBand(filtered: Buffer): Promise<{ body: Buffer; adler: number }> {
  return new Promise((resolve, reject) => {
    const deflate = createDeflate({ ...BAND_DEFLATE, strategy: strategyFor(filtered), chunkSize: 1 << 20 });
    const out: Buffer[] = [];
    deflate.on('data', (part: Buffer) => out.push(part));
    deflate.on('error', reject);
    deflate.on('end', () => {
      const all = Buffer.concat(out);
      const tail = all.subarray(all.length - 6, all.length - 4);
      if (!tail.equals(FINAL_EMPTY_BLOCK)) return reject(new Error('unexpected zlib stream ending'));
      resolve({ body: all.subarray(2, all.length - 6), adler: all.readUInt32BE(all.length - 4) });
    });
    deflate.write(filtered);
    deflate.flush(constants.Z_SYNC_FLUSH, () => deflate.end());
  });
}

export async function encodePngBand(
  rgba: Uint8Array,
  width: number,
  rows: number,
  opaque: boolean,
): Promise<PngBand> {
  const filtered = subFilter(rgba, width, rows, opaque);
  const { body, adler } = await deflateBand(filtered);
  return { chunk: chunk('IDAT', body), adler, length: filtered.length };
}

/** adler32_combine (zlib's adler32.c): the checksum of A followed by B from both checksums. */
export function adler32Combine(adlerA: number, adlerB: number, lengthB: number): number {
  const rem = lengthB % ADLER_BASE;
  let sum1 = adlerA & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (adlerB & 0xffff) + ADLER_BASE - 1;
  sum2 += (adlerA >>> 16) + (adlerB >>> 16) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/**
 * One PNG (8-bit RGB or RGBA) from its bands, in order. With `before`, only the bytes that come
 * before band `before`'s chunk (they depend on the bands before it alone; the trailer's Adler-32
 * needs them all).
 */
export function joinPng(
  bands: readonly PngBand[],
  width: number,
  height: number,
  opaque: boolean,
  before = bands.length,
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = opaque ? 2 : 6;
  const parts = [SIGNATURE, chunk('IHDR', header), chunk('IDAT', ZLIB_HEADER)];
  for (const band of bands.slice(0, before)) parts.push(band.chunk);
  if (before === bands.length) {
    let adler = 1;
    for (const band of bands) adler = adler32Combine(adler, band.adler, band.length);
    const trailer = Buffer.alloc(6);
    FINAL_EMPTY_BLOCK.copy(trailer);
    trailer.writeUInt32BE(adler, 2);
    parts.push(chunk('IDAT', trailer), chunk('IEND', Buffer.alloc(0)));
  }
  return Buffer.concat(parts);
}
