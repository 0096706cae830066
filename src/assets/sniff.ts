/**
 * Decides what an uploaded file is from its bytes alone; the declared Content-Type is never
 * trusted. Images: PNG, JPEG, WebP, GIF, SVG. Fonts: TTF, OTF, WOFF, WOFF2. Media containers:
 * MP4 (and M4A), WebM, MP3, WAV; whether such a file is a video or an audio asset is decided by
 * the streams the probe finds in it (media.ts), not here.
 */
import { fileTypeFromBuffer } from 'file-type';

/** The media containers accepted, each read by its own ffprobe demuxer (never by guessing). */
export type MediaContainer = 'mp4' | 'webm' | 'mp3' | 'wav';

export type SniffedFile =
  | { kind: 'image' | 'font'; mimeType: string; extension: string }
  | { kind: 'media'; container: MediaContainer };

const allowed: Record<string, SniffedFile> = {
  'image/png': { kind: 'image', mimeType: 'image/png', extension: 'png' },
  'image/jpeg': { kind: 'image', mimeType: 'image/jpeg', extension: 'jpg' },
  'image/webp': { kind: 'image', mimeType: 'image/webp', extension: 'webp' },
  'image/gif': { kind: 'image', mimeType: 'image/gif', extension: 'gif' },
  'font/ttf': { kind: 'font', mimeType: 'font/ttf', extension: 'ttf' },
  'font/otf': { kind: 'font', mimeType: 'font/otf', extension: 'otf' },
  'font/woff': { kind: 'font', mimeType: 'font/woff', extension: 'woff' },
  'font/woff2': { kind: 'font', mimeType: 'font/woff2', extension: 'woff2' },
  // file-type names ISO media by the brand in its `ftyp` box: all are the one MP4 container.
  // QuickTime (`qt  `) and Matroska other than WebM stay out: the contract names MP4 and WebM.
  'video/mp4': { kind: 'media', container: 'mp4' },
  'video/x-m4v': { kind: 'media', container: 'mp4' },
  'audio/mp4': { kind: 'media', container: 'mp4' },
  'audio/x-m4a': { kind: 'media', container: 'mp4' },
  'video/webm': { kind: 'media', container: 'webm' },
  'audio/webm': { kind: 'media', container: 'webm' },
  'audio/mpeg': { kind: 'media', container: 'mp3' },
  'audio/wav': { kind: 'media', container: 'wav' },
  'audio/vnd.wave': { kind: 'media', container: 'wav' },
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
