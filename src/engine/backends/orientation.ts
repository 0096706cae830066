/**
 * The EXIF orientation Skia applies to an image's bytes (exif.ts): what layout, libvips's
 * shrink-on-load, PDF embedding and the asset API go by. Reads headers only: no pixels, no Skia.
 */
import { tiffOrientation, turnsAQuarter, webpExif } from './exif.ts';
import { classifyImageBytes } from './image-kind.ts';
import { type JpegHeader, readJpegHeader } from './jpeg-header.ts';

/**
 * 1-8; 1 for a file Skia draws as stored (PNG, GIF, SVG, no tag, or one it cannot read). A JPEG's
 * header may be given when the caller has read it already.
 */
export function drawnOrientation(bytes: Buffer, jpegHeader?: JpegHeader | null): number {
  const kind = classifyImageBytes(bytes);
  if (kind === 'jpeg')
    return (jpegHeader === undefined ? readJpegHeader(bytes) : jpegHeader)?.orientation ?? 1;
  const exif = kind === 'webp' ? webpExif(bytes) : null;
  return exif ? tiffOrientation(exif) : 1;
}

/** The size Skia draws an image stored at width × height: turned a quarter, the two trade places. */
export function drawnSize(bytes: Buffer, width: number, height: number): { width: number; height: number } {
  return turnsAQuarter(drawnOrientation(bytes)) ? { width: height, height: width } : { width, height };
}
