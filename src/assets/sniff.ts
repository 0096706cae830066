/**
 * Decides what an uploaded file is from its bytes alone; the declared Content-Type is never
 * trusted. Images: PNG, JPEG, WebP, GIF, SVG. Fonts: TTF, OTF, WOFF, WOFF2.
 */
import { fileTypeFromBuffer } from 'file-type';

export interface SniffedFile {
  kind: 'image' | 'font';
  mimeType: string;
  extension: string;
}

const allowed: Record<string, SniffedFile> = {
  'image/png': { kind: 'image', mimeType: 'image/png', extension: 'png' },
  'image/jpeg': { kind: 'image', mimeType: 'image/jpeg', extension: 'jpg' },
  'image/webp': { kind: 'image', mimeType: 'image/webp', extension: 'webp' },
  'image/gif': { kind: 'image', mimeType: 'image/gif', extension: 'gif' },
  'font/ttf': { kind: 'font', mimeType: 'font/ttf', extension: 'ttf' },
  'font/otf': { kind: 'font', mimeType: 'font/otf', extension: 'otf' },
  'font/woff': { kind: 'font', mimeType: 'font/woff', extension: 'woff' },
  'font/woff2': { kind: 'font', mimeType: 'font/woff2', extension: 'woff2' },
};

const SVG_MIME: SniffedFile = { kind: 'image', mimeType: 'image/svg+xml', extension: 'svg' };

/** Text that opens (after an optional BOM, XML declaration, comments and doctype) with `<svg`. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096))
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const stripped = head
    .replace(/^\s*<\?xml[^>]*\?>/, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '')
    .replace(/^\s*<!DOCTYPE[^>]*>/i, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '');
  return /^\s*<svg[\s>]/i.test(stripped);
}

export async function sniff(bytes: Uint8Array): Promise<SniffedFile | null> {
  // SVG first: file-type reports an SVG with an XML declaration as plain XML.
  if (looksLikeSvg(bytes)) return SVG_MIME;
  const detected = await fileTypeFromBuffer(bytes);
  return detected ? (allowed[detected.mime] ?? null) : null;
}
