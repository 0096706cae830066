/**
 * Image sources: `asset:<id>`, an http(s) URL, or a `data:image/...` URI. This only checks the
 * syntax; whether a URL may be fetched (private addresses, http, size, time) is the fetch guard's
 * decision at render time, so the same document can be valid and still refused by a deployment.
 */
import { z } from 'zod';
import { designBounds } from './bounds.ts';

export type ImageSrcKind = 'asset' | 'url' | 'data';

const ASSET = /^asset:([A-Za-z0-9_-]{1,64})$/;
// `data:image/png;base64,...`, `data:image/svg+xml;utf8,<svg ...>`: the media type must be an image.
const DATA_URI = /^data:image\/[a-z0-9.+-]+(?:;[^,]*)?,/i;

function isHttpUrl(text: string): boolean {
  if (text.length > designBounds.urlLength) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** What kind of source the text is, or `null` when it is none of the accepted kinds. */
export function classifyImageSrc(text: string): ImageSrcKind | null {
  if (text.length === 0 || text.length > designBounds.srcLength) return null;
  if (ASSET.test(text)) return 'asset';
  if (DATA_URI.test(text)) return 'data';
  if (isHttpUrl(text)) return 'url';
  return null;
}

/** The asset id of an `asset:<id>` source, else `null`. */
export function assetIdOf(src: string): string | null {
  return ASSET.exec(src)?.[1] ?? null;
}

export const IMAGE_SRC_MESSAGE = 'must be asset:<id>, an https URL or a data:image URI';

export const imageSrcSchema = z
  .string()
  .max(designBounds.srcLength, { error: IMAGE_SRC_MESSAGE })
  .refine((value) => classifyImageSrc(value) !== null, { error: IMAGE_SRC_MESSAGE });

export const imageFitSchema = z.enum(['cover', 'contain', 'fill']);
