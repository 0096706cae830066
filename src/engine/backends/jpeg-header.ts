/**
 * What a JPEG's header says, read from its markers up to the first scan (ITU-T T.81 B.2), where
 * libjpeg stops reading the header too: the frame, and the markers that change how the pixels are
 * to be drawn (an EXIF orientation, Adobe's colour transform).
 */
import { tiffOrientation } from './exif.ts';

export interface JpegHeader {
  width: number;
  height: number;
  /** The frame marker: 0xc0 baseline, 0xc1 extended, 0xc2 progressive, others rarer. */
  frameType: number;
  /** Bits per sample. */
  precision: number;
  components: number;
  /** The EXIF orientation Skia applies (exif.ts): 1-8, 1 when there is none it can read. */
  orientation: number;
  /** An Adobe APP14 marker, which may mean CMYK or an inverted transform. */
  adobe: boolean;
}

/** Skia takes "Exif\0" and skips the byte after it, whatever it is (usually a second \0). */
const EXIF = Buffer.from('Exif\0', 'latin1');
const ADOBE = Buffer.from('Adobe', 'latin1');

/** The header of a JPEG whose markers read whole up to its first scan, or null. */
export function readJpegHeader(bytes: Buffer): JpegHeader | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let frame: Pick<JpegHeader, 'width' | 'height' | 'frameType' | 'precision' | 'components'> | null = null;
  let orientation = 1;
  let exifSeen = false;
  let adobe = false;
  for (let at = 2; at + 4 <= bytes.length; ) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at += 1; // a fill byte (B.1.1.2)
      continue;
    }
    if (marker === 0xda) return frame && { ...frame, orientation, adobe };
    // The end of the image, or a marker without a length (B.1.1.3), where a header cannot have one.
    if (marker === 0xd9 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) return null;
    const length = bytes.readUInt16BE(at + 2);
    const body = bytes.subarray(at + 4, at + 2 + length);
    if (length < 2 || body.length !== length - 2) return null;
    // The first EXIF segment is the one Skia reads.
    if (marker === 0xe1 && !exifSeen && startsWith(body, EXIF)) {
      exifSeen = true;
      orientation = tiffOrientation(body.subarray(EXIF.length + 1));
    }
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
