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

/** Sub-filtered rows from unpremultiplied RGBA: RGB (3 bytes a pixel) when opaque, else RGBA. */
export function subFilter(rgba: Uint8Array, width: number, rows: number, opaque: boolean): Buffer {
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

/** Deflates filtered rows with a sync flush; zlib's trailer gives the band's Adler-32. */
function deflateBand(filtered: Buffer): Promise<{ body: Buffer; adler: number }> {
  return new Promise((resolve, reject) => {
    // Run-length matching: fast, and it still folds the zero runs Sub leaves on flat colour.
    const deflate = createDeflate({ level: 1, strategy: constants.Z_RLE, chunkSize: 1 << 20 });
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

/** One PNG (8-bit RGB or RGBA) from its bands, in order. */
export function joinPng(bands: readonly PngBand[], width: number, height: number, opaque: boolean): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = opaque ? 2 : 6;
  let adler = 1;
  for (const band of bands) adler = adler32Combine(adler, band.adler, band.length);
  const trailer = Buffer.alloc(6);
  FINAL_EMPTY_BLOCK.copy(trailer);
  trailer.writeUInt32BE(adler, 2);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', ZLIB_HEADER),
    ...bands.map((band) => band.chunk),
    chunk('IDAT', trailer),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
