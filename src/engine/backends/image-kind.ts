/**
 * What image bytes are, decided from the bytes alone: a declared content type (a data URI's, a
 * server's, an asset's) is never trusted. Bitmaps are recognised by their signature and go to the
 * bitmap decoder, which decodes by signature too; everything else must parse as SVG through the
 * checked SVG path, or is refused. So no bytes reach the native SVG renderer unchecked.
 */

export type ImageBytesKind = 'png' | 'jpeg' | 'gif' | 'webp' | 'svg';

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0): boolean =>
  signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** True for bytes that, after an optional BOM and whitespace, open with `<` (markup). */
function opensWithMarkup(bytes: Uint8Array): boolean {
  let at = startsWith(bytes, UTF8_BOM) ? 3 : 0;
  while (
    at < bytes.length &&
    (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)
  )
    at++;
  return bytes[at] === 0x3c;
}

/** The kind of image these bytes hold, or null for anything else (BMP, ICO, text, garbage). */
export function classifyImageBytes(bytes: Uint8Array): ImageBytesKind | null {
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'webp';
  // Markup is SVG only if the SVG parser accepts it (with every safety check): decided by the caller.
  return opensWithMarkup(bytes) ? 'svg' : null;
}
