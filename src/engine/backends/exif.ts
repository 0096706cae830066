/**
 * The EXIF orientation Skia applies when it decodes an image, read the way Skia reads it (its
 * SkExif and the codecs that feed it), so that layout, libvips's shrink-on-load, PDF embedding and
 * the asset API all agree with what Skia draws (docs/decisions.md, "EXIF orientation"):
 * - JPEG: the first APP1 segment that starts "Exif\0" and one more byte (usually a second \0);
 * - WebP: the EXIF chunk of an extended file that flags it (webpExif), read as TIFF from its first
 *   byte (a chunk that starts "Exif\0\0", as libvips writes it, is not TIFF, and Skia draws such a
 *   file as stored);
 * - PNG and GIF: never turned.
 * In the TIFF structure (TIFF 6.0 §2, Exif 2.32 §4.6.2), the first valid orientation tag (0x0112:
 * one SHORT, 1-8) of the first image file directory, then of the Exif sub-directory (0x8769),
 * wins; invalid ones are skipped. None: 1, drawn as stored.
 */

const ORIENTATION = 0x0112;
const EXIF_IFD = 0x8769;
const SHORT = 3;
const LONG = 4;

/** The orientation (1-8) a TIFF structure gives, as Skia reads it; 1 when none is valid. */
export function tiffOrientation(tiff: Buffer): number {
  if (tiff.length < 8) return 1;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return 1;
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return 1;
  let subDirectory = 0;
  const orientationIn = (ifd: number): number => {
    if (ifd < 8 || ifd + 2 > tiff.length) return 0;
    const entries = u16(ifd);
    for (let i = 0; i < entries; i++) {
      const entry = ifd + 2 + i * 12;
      if (entry + 12 > tiff.length) return 0;
      const [tag, type, count] = [u16(entry), u16(entry + 2), u32(entry + 4)];
      if (tag === ORIENTATION && type === SHORT && count === 1) {
        const value = u16(entry + 8);
        if (value >= 1 && value <= 8) return value;
      }
      if (tag === EXIF_IFD && type === LONG && count === 1 && !subDirectory) subDirectory = u32(entry + 8);
    }
    return 0;
  };
  return orientationIn(u32(4)) || (subDirectory ? orientationIn(subDirectory) : 0) || 1;
}

/**
 * The TIFF structure of a WebP's EXIF chunk, or null. Only an extended file (its first chunk VP8X)
 * that flags EXIF (bit 3 of VP8X's flags) has one that decoders read, libwebp's demuxer and so
 * Skia; chunks past the size the RIFF header declares are not part of the file.
 */
export function webpExif(bytes: Buffer): Buffer | null {
  if (
    bytes.length < 21 ||
    bytes.toString('latin1', 0, 4) !== 'RIFF' ||
    bytes.toString('latin1', 8, 12) !== 'WEBP'
  )
    return null;
  if (bytes.toString('latin1', 12, 16) !== 'VP8X' || ((bytes[20] as number) & 0x08) === 0) return null;
  const end = Math.min(bytes.length, 8 + bytes.readUInt32LE(4));
  for (let at = 12; at + 8 <= end; ) {
    const size = bytes.readUInt32LE(at + 4);
    if (bytes.toString('latin1', at, at + 4) === 'EXIF')
      return bytes.subarray(at + 8, Math.min(end, at + 8 + size));
    at += 8 + size + (size % 2); // chunks are padded to an even size
  }
  return null;
}

/**
 * How libvips must turn an image to draw what Skia draws for `orientation`: a mirror left to right
 * (applied first), then a clockwise turn. Checked against libvips's own reading of a plain tag
 * (exif.test.ts).
 */
export function orientationSteps(orientation: number): { mirror: boolean; degrees: 0 | 90 | 180 | 270 } {
  const steps: Record<number, { mirror: boolean; degrees: 0 | 90 | 180 | 270 }> = {
    2: { mirror: true, degrees: 0 },
    3: { mirror: false, degrees: 180 },
    4: { mirror: true, degrees: 180 },
    5: { mirror: true, degrees: 270 },
    6: { mirror: false, degrees: 90 },
    7: { mirror: true, degrees: 90 },
    8: { mirror: false, degrees: 270 },
  };
  return steps[orientation] ?? { mirror: false, degrees: 0 };
}

/** Orientations 5-8 turn a quarter: the drawn width is the stored height. */
export const turnsAQuarter = (orientation: number): boolean => orientation >= 5;
