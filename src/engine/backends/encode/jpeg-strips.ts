/**
 * Striped JPEG: each strip of rows is encoded as a JPEG of its own with the same settings (so the
 * same quantisation tables, and the standard Huffman tables);
 * its entropy-coded data is then joined under one header whose DRI makes every strip one restart
 * interval, with RSTn markers between (ITU T.81 §B.2.4.4, §F.1.2.3: DC predictions reset at each
 * restart, as each strip's own encoder started from zero). The joined file decodes to exactly the
 * pixels the strips would alone, and any strip can be re-encoded and spliced without the others.
 *
 * The encoder is libjpeg-turbo's TurboJPEG API called directly (`@julusian/jpeg-turbo`, on libuv's
 * threads) up to quality 90, the default: a strip costs a quarter of a sharp pipeline there, whose
 * set-up outweighed the coding (docs/performance.md, "JPEG strips by TurboJPEG"). That binding always
 * uses libjpeg's fast integer DCT, which above 90 loses fidelity (measured 0.2-3 dB PSNR at 95), so
 * higher qualities go through sharp and libvips's accurate DCT. One render uses one encoder for all
 * its strips (the quality is part of a base's key), and both write the same tables.
 */
import turbo from '@julusian/jpeg-turbo';
import sharp from 'sharp';

export interface JpegSettings {
  quality: number;
}

export interface JpegStrip {
  /** Markers between SOI and the entropy data (DQT, SOF0, DHT, SOS, …) as the encoder wrote them. */
  header: Buffer;
  /** Entropy-coded data, up to (not including) EOI. */
  entropy: Buffer;
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOF0 = 0xc0;
const SOS = 0xda;
const RST0 = 0xd0;
/** 4:2:0 chroma subsampling: one MCU is 16×16 pixels. */
const JPEG_MCU = 16;
/** The highest quality TurboJPEG encodes here (its fast DCT); above, sharp (see the top). */
const FAST_DCT_MAX_QUALITY = 90;

function splitStrip(jpeg: Buffer): JpegStrip {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) throw new Error('strip is not a JPEG');
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) throw new Error(`unexpected byte in JPEG header at ${at}`);
    const marker = jpeg[at + 1] ?? 0;
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    if (marker === SOS) {
      if (jpeg[jpeg.length - 2] !== 0xff || jpeg[jpeg.length - 1] !== EOI) throw new Error('strip lacks EOI');
      return { header: jpeg.subarray(2, end), entropy: jpeg.subarray(end, jpeg.length - 2) };
    }
    at = end;
  }
  throw new Error('strip has no SOS');
}

/** Encodes `rows` rows of RGBA (opaque: the alpha is dropped) as one strip. */
export async function encodeJpegStrip(
  rgba: Uint8Array,
  width: number,
  rows: number,
  settings: JpegSettings,
): Promise<JpegStrip> {
  return splitStrip(await encodeJpeg(rgba, width, rows, settings));
}

/** Encodes RGBA (opaque: the alpha is dropped) as a baseline 4:2:0 JPEG with the standard Huffman tables. */
export function encodeJpeg(
  rgba: Uint8Array,
  width: number,
  rows: number,
  settings: JpegSettings,
): Promise<Buffer> {
  return settings.quality <= FAST_DCT_MAX_QUALITY
    ? turbo
        .compress(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), {
          format: turbo.FORMAT_RGBA,
          width,
          height: rows,
          subsampling: turbo.SAMP_420,
          quality: settings.quality,
        })
        // The binding answers a view of a buffer of the worst-case size (about 420 KB for a
        // 1080 × 128 strip): a copy of its length, so a strip a base keeps holds only its bytes.
        .then((view) => Buffer.from(view))
    : sharp(rgba, { raw: { width, height: rows, channels: 4 } })
        .removeAlpha()
        .jpeg({ quality: settings.quality, optimiseCoding: false, chromaSubsampling: '4:2:0' })
        .toBuffer();
}

/** The header of strip 0 with the whole height in SOF0, and a DRI of one strip's MCUs before SOS. */
function joinedHeader(first: Buffer, width: number, height: number, stripRows: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < first.length; ) {
    const marker = first[at + 1] ?? 0;
    const end = at + 2 + first.readUInt16BE(at + 2);
    let segment = first.subarray(at, end);
    if (marker === SOF0) {
      segment = Buffer.from(segment);
      segment.writeUInt16BE(height, 5);
    }
    if (marker === SOS) {
      const interval = Math.ceil(width / JPEG_MCU) * (stripRows / JPEG_MCU);
      parts.push(Buffer.from([0xff, 0xdd, 0x00, 0x04, interval >> 8, interval & 0xff]));
    }
    parts.push(segment);
    at = end;
  }
  return parts;
}

/**
 * One JPEG from strips of `stripRows` rows each (the last may be shorter), in order. With
 * `before`, only the bytes that come before strip `before`'s data: they depend on the strips
 * before it alone, so an incremental render can write them while the changed strips encode.
 */
export function joinJpeg(
  strips: readonly JpegStrip[],
  width: number,
  height: number,
  stripRows: number,
  before = strips.length,
): Buffer {
  const [first] = strips;
  if (!first) throw new Error('no strips');
  const parts = [Buffer.from([0xff, SOI]), ...joinedHeader(first.header, width, height, stripRows)];
  strips.slice(0, before).forEach((strip, index) => {
    parts.push(strip.entropy);
    if (index < strips.length - 1) parts.push(Buffer.from([0xff, RST0 + (index % 8)]));
  });
  if (before === strips.length) parts.push(Buffer.from([0xff, EOI]));
  return Buffer.concat(parts);
}
