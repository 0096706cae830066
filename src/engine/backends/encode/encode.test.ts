/**
 * The strip encoders against whole-image encodes: a striped JPEG decodes to the very pixels of a
 * whole-image JPEG with the same settings, a re-encoded strip spliced in gives the bytes of a
 * whole striped encode, a banded PNG decodes to the exact pixels (opaque and with alpha, photographic
 * bands Huffman-coded and flat ones run-length matched), the word-wise Sub filter equals the
 * byte-wise one, and adler32Combine agrees with zlib's own Adler-32 for any split.
 */
import os from 'node:os';
import { constants, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeJpeg, encodeJpegStrip, joinJpeg } from './jpeg-strips.ts';
import {
  adler32Combine,
  BAND_DEFLATE,
  encodePngBand,
  joinPng,
  strategyFor,
  subFilter,
  subFilterBytes,
} from './png-bands.ts';
import { consecutiveRuns, STRIP_ROWS, stripsOf } from './strips.ts';

function noise(width: number, height: number, seed: number, alpha = false): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  let s = seed;
  for (let i = 0; i < out.length; i += 4) {
    s = (s * 1664525 + 1013904223) >>> 0;
    const x = (i / 4) % width;
    out[i] = (x + (s >>> 26)) & 255;
    out[i + 1] = ((i >> 9) + (s >>> 27)) & 255;
    out[i + 2] = (s >>> 24) & 255;
    out[i + 3] = alpha ? (s >>> 16) & 255 : 255;
  }
  return out;
}

const rowsOf = (rgba: Uint8Array, width: number, top: number, rows: number) =>
  rgba.subarray(top * width * 4, (top + rows) * width * 4);

async function stripedJpeg(rgba: Uint8Array, width: number, height: number, quality: number) {
  return Promise.all(
    stripsOf(height).map((s) =>
      encodeJpegStrip(rowsOf(rgba, width, s.top, s.rows), width, s.rows, { quality }),
    ),
  );
}

describe('striped JPEG', () => {
  it('decodes to the pixels of a whole-image encode with the same settings', async () => {
    for (const [width, height, quality] of [
      [1080, 1080, 90],
      [333, 129, 90],
      [64, 16, 90],
      [333, 129, 95],
    ] as const) {
      const rgba = noise(width, height, width);
      const joined = joinJpeg(await stripedJpeg(rgba, width, height, quality), width, height, STRIP_ROWS);
      const whole = await encodeJpeg(rgba, width, height, { quality });
      const a = await sharp(joined).raw().toBuffer();
      const b = await sharp(whole).raw().toBuffer();
      expect([width, height, a.length, a.equals(b)]).toEqual([width, height, width * height * 3, true]);
    }
  });

  it('keeps no more memory per strip than its bytes (a base holds many strips)', async () => {
    const [width, rows] = [1080, STRIP_ROWS];
    for (const quality of [90, 95]) {
      const strip = await encodeJpegStrip(noise(width, rows, 3), width, rows, { quality });
      const held = new Set([strip.header.buffer, strip.entropy.buffer]);
      const heldBytes = [...held].reduce((sum, buffer) => sum + buffer.byteLength, 0);
      // The file the encoder wrote, SOI and EOI included; buffers under 4 KB may share Node's 8 KB pool.
      const file = 2 + strip.header.length + strip.entropy.length + 2;
      expect(heldBytes).toBeLessThanOrEqual(Math.max(8192, file));
    }
  });

  it("encodes above quality 90 with libvips's accurate DCT, not TurboJPEG's fast one", async () => {
    const [width, height] = [333, 129];
    const rgba = noise(width, height, 7);
    const joined = joinJpeg(await stripedJpeg(rgba, width, height, 95), width, height, STRIP_ROWS);
    const bySharp = await sharp(rgba, { raw: { width, height, channels: 4 } })
      .removeAlpha()
      .jpeg({ quality: 95, optimiseCoding: false, chromaSubsampling: '4:2:0' })
      .toBuffer();
    expect((await sharp(joined).raw().toBuffer()).equals(await sharp(bySharp).raw().toBuffer())).toBe(true);
  });

  it('splices a re-encoded strip into the bytes of a whole striped encode', async () => {
    const [width, height] = [500, 700];
    const before = noise(width, height, 1);
    const after = Uint8Array.from(before);
    after.fill(200, 300 * width * 4, 310 * width * 4);
    const strips = await stripedJpeg(before, width, height, 80);
    const changed = Math.floor(300 / STRIP_ROWS);
    const s = stripsOf(height)[changed] as { top: number; rows: number };
    strips[changed] = await encodeJpegStrip(rowsOf(after, width, s.top, s.rows), width, s.rows, {
      quality: 80,
    });
    const spliced = joinJpeg(strips, width, height, STRIP_ROWS);
    const fresh = joinJpeg(await stripedJpeg(after, width, height, 80), width, height, STRIP_ROWS);
    expect(spliced.equals(fresh)).toBe(true);
  });
});

describe('banded PNG', () => {
  for (const opaque of [true, false]) {
    it(`decodes to the exact pixels (${opaque ? 'RGB' : 'RGBA'})`, async () => {
      const [width, height] = [301, 517];
      const rgba = noise(width, height, 7, !opaque);
      const bands = await Promise.all(
        stripsOf(height).map((s) => encodePngBand(rowsOf(rgba, width, s.top, s.rows), width, s.rows, opaque)),
      );
      const png = joinPng(bands, width, height, opaque);
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height, info.channels]).toEqual([width, height, opaque ? 3 : 4]);
      const expected = opaque ? Buffer.from(rgba.filter((_, i) => i % 4 !== 3)) : Buffer.from(rgba);
      expect(data.equals(expected)).toBe(true);
    });
  }

  /** A flat page: a plain background with a few bars of another colour, as designs have. */
  function flat(width: number, height: number, alpha: boolean): Uint8Array {
    const out = new Uint8Array(width * height * 4);
    for (let i = 0; i < out.length; i += 4) {
      const [x, y] = [(i / 4) % width, Math.floor(i / 4 / width)];
      const bar = y % 40 < 12 && x > 30 && x < width - 30;
      out.set(bar ? [29, 29, 53, alpha ? 200 : 255] : [244, 239, 230, 255], i);
    }
    return out;
  }

  for (const opaque of [true, false]) {
    it(`decodes a page of photographic and flat bands, each coded its way (${opaque ? 'RGB' : 'RGBA'})`, async () => {
      const [width, height] = [257, 300];
      const rgba = new Uint8Array(width * height * 4);
      rgba.set(noise(width, 150, 11, !opaque));
      rgba.set(flat(width, 150, !opaque), width * 150 * 4);
      const strategies = stripsOf(height).map((s) =>
        strategyFor(subFilter(rowsOf(rgba, width, s.top, s.rows), width, s.rows, opaque)),
      );
      expect(strategies).toContain(constants.Z_HUFFMAN_ONLY);
      expect(strategies).toContain(constants.Z_RLE);
      const bands = await Promise.all(
        stripsOf(height).map((s) => encodePngBand(rowsOf(rgba, width, s.top, s.rows), width, s.rows, opaque)),
      );
      const { data } = await sharp(joinPng(bands, width, height, opaque))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const expected = opaque ? Buffer.from(rgba.filter((_, i) => i % 4 !== 3)) : Buffer.from(rgba);
      expect(data.equals(expected)).toBe(true);
    });
  }

  it('keeps run-length matching where it writes flat rows far smaller', () => {
    const width = 1080;
    const filtered = subFilter(flat(width, STRIP_ROWS, false), width, STRIP_ROWS, true);
    const size = (strategy: number) => deflateSync(filtered, { ...BAND_DEFLATE, strategy }).length;
    expect(strategyFor(filtered)).toBe(constants.Z_RLE);
    expect(size(constants.Z_RLE) * 4).toBeLessThan(size(constants.Z_HUFFMAN_ONLY));
  });

  for (const opaque of [true, false]) {
    it(`codes a faint texture by Huffman alone, though Sub leaves it many zeros (${opaque ? 'RGB' : 'RGBA'})`, () => {
      // A translucent white card over a photograph: each channel moves by -1, 0 or +1 from its
      // left neighbour, so a third of the filtered bytes are zero, yet runs of three are rare.
      const width = 1080;
      const rgba = new Uint8Array(width * STRIP_ROWS * 4);
      let seed = 3;
      for (let i = 0; i < rgba.length; i++) {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        const left = i % (width * 4) < 4 ? 236 : (rgba[i - 4] as number);
        rgba[i] = i % 4 === 3 ? 255 : Math.min(250, Math.max(220, left + (seed % 3) - 1));
      }
      const filtered = subFilter(rgba, width, STRIP_ROWS, opaque);
      const zeros = filtered.filter((byte) => byte === 0).length / filtered.length;
      expect(zeros).toBeGreaterThan(0.25);
      expect(strategyFor(filtered)).toBe(constants.Z_HUFFMAN_ONLY);
      // Run-length matching would have saved next to nothing.
      const size = (strategy: number) => deflateSync(filtered, { ...BAND_DEFLATE, strategy }).length;
      expect(size(constants.Z_HUFFMAN_ONLY)).toBeLessThan(size(constants.Z_RLE) * 1.05);
    });
  }

  it('filters word by word exactly as byte by byte, and falls back for unaligned pixels', () => {
    const [width, rows] = [131, 7];
    const rgba = noise(width, rows + 1, 5, true);
    for (const opaque of [true, false]) {
      const aligned = rgba.subarray(4, 4 + width * rows * 4);
      // The word path runs for aligned pixels on little-endian machines, which every supported is.
      expect([aligned.byteOffset % 4, os.endianness()]).toEqual([0, 'LE']);
      expect(
        subFilter(aligned, width, rows, opaque).equals(subFilterBytes(aligned, width, rows, opaque)),
      ).toBe(true);
      const unaligned = new Uint8Array(rgba.buffer.slice(0), 1, width * rows * 4);
      expect(
        subFilter(unaligned, width, rows, opaque).equals(subFilterBytes(unaligned, width, rows, opaque)),
      ).toBe(true);
    }
  });

  it('combines Adler-32 as zlib computes it over the whole', () => {
    const bytes = noise(97, 89, 3);
    const adlerOf = (part: Uint8Array) => {
      const z = deflateSync(part, { level: 0 });
      return z.readUInt32BE(z.length - 4);
    };
    for (const cut of [0, 1, 5552, 17_000, bytes.length - 1, bytes.length]) {
      const combined = adler32Combine(
        adlerOf(bytes.subarray(0, cut)),
        adlerOf(bytes.subarray(cut)),
        bytes.length - cut,
      );
      expect([cut, combined]).toEqual([cut, adlerOf(bytes)]);
    }
  });
});

describe('strip geometry', () => {
  it('covers every row once, in multiples of 16, and groups runs', () => {
    const strips = stripsOf(1080);
    expect(strips.reduce((sum, s) => sum + s.rows, 0)).toBe(1080);
    expect(strips.slice(0, -1).every((s) => s.rows === STRIP_ROWS && s.rows % 16 === 0)).toBe(true);
    expect(consecutiveRuns([5, 1, 2, 2, 7, 6, 0])).toEqual([
      [0, 1, 2],
      [5, 6, 7],
    ]);
  });
});
