/**
 * What a JPEG's header says, read from its markers up to the first scan (ITU-T T.81 B.2), where
 * libjpeg stops reading the header too: the frame, and the markers that change how the pixels are
 * to be drawn (an EXIF orientation, an ICC profile, Adobe's colour transform).
 */

export interface JpegHeader {
  width: number;
  height: number;
  /** The frame marker: 0xc0 baseline, 0xc1 extended, 0xc2 progressive, others rarer. */
  frameType: number;
  /** Bits per sample. */
  precision: number;
  components: number;
  /** The EXIF orientation (1-8): 1 when there is none, 0 when the EXIF cannot be read. */
  orientation: number;
  /** An embedded ICC profile (APP2 "ICC_PROFILE"). */
  iccProfile: boolean;
  /** An Adobe APP14 marker, which may mean CMYK or an inverted transform. */
  adobe: boolean;
}

const EXIF = Buffer.from('Exif\0\0', 'latin1');
const ICC = Buffer.from('ICC_PROFILE\0', 'latin1');
const ADOBE = Buffer.from('Adobe', 'latin1');

/** The header of a JPEG whose markers read whole up to its first scan, or null. */
export function readJpegHeader(bytes: Buffer): JpegHeader | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let frame: Pick<JpegHeader, 'width' | 'height' | 'frameType' | 'precision' | 'components'> | null = null;
  let orientation = 1;
  let exifSeen = false;
  let iccProfile = false;
  let adobe = false;
  for (let at = 2; at + 4 <= bytes.length; ) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at += 1; // a fill byte (B.1.1.2)
      continue;
    }
    if (marker === 0xda) return frame && { ...frame, orientation, iccProfile, adobe };
    // The end of the image, or a marker without a length (B.1.1.3), where a header cannot have one.
    if (marker === 0xd9 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) return null;
    const length = bytes.readUInt16BE(at + 2);
    const body = bytes.subarray(at + 4, at + 2 + length);
    if (length < 2 || body.length !== length - 2) return null;
    // The first EXIF segment is the one decoders read (Skia's SkExif as well).
    if (marker === 0xe1 && !exifSeen && startsWith(body, EXIF)) {
      exifSeen = true;
      orientation = exifOrientation(body.subarray(EXIF.length));
    }
    if (marker === 0xe2 && startsWith(body, ICC)) iccProfile = true;
    if (marker === 0xee && startsWith(body, ADOBE)) adobe = true;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (frame || body.length < 6) return null;
      frame = {
        frameType: marker,
        precision: body[0] as number,
        height: body.readUInt16BE(1),
        width: body.readUInt16BE(3),
        components: body[5] as number,
      };
      if (!frame.width || !frame.height) return null;
    }
    at += 2 + length;
  }
  return null;
}

const startsWith = (body: Buffer, prefix: Buffer): boolean =>
  body.length >= prefix.length && body.subarray(0, prefix.length).equals(prefix);

/**
 * The orientation tag (0x0112) of the first image file directory of an Exif TIFF structure
 * (Exif 2.32 §4.5.2, TIFF 6.0 §2): 1 when the tag is absent, 0 when the structure cannot be read.
 */
function exifOrientation(tiff: Buffer): number {
  if (tiff.length < 8) return 0;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return 0;
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return 0;
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 0;
  const entries = u16(ifd);
  if (ifd + 2 + entries * 12 > tiff.length) return 0;
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (u16(entry) !== 0x0112) continue;
    // One SHORT (type 3), held in the first two bytes of the value field.
    const value = u16(entry + 8);
    return u16(entry + 2) === 3 && u32(entry + 4) === 1 && value >= 1 && value <= 8 ? value : 0;
  }
  return 1;
}
