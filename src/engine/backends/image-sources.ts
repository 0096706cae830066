/**
 * Where image bytes come from: `asset:<id>` (bytes supplied with the job), data URIs (decoded
 * here, SVG ones too) and http(s) URLs (only through the SSRF-guarded fetcher; fetched bytes are
 * kept for a short while so a template's background URL is not fetched on every render).
 */
import { assetIdOf, classifyImageSrc } from '../../design/index.ts';
import { defaultImagePolicy, type FetchPolicy, FetchRefused, fetchImageBytes } from '../../outbound/index.ts';
import type { JobAsset } from '../types.ts';
import { cacheBytes } from './cache-limits.ts';
import type { LoadedImage } from './images.ts';
import { Lru } from './lru.ts';

export class ImageSourceError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ImageSourceError';
  }
}

export interface SourceBytes {
  bytes: Buffer;
  mimeType: string;
}

export interface SourceContext {
  assets: Record<string, JobAsset>;
  allowPrivateUrls: boolean;
  /** Test seam: overrides parts of the image fetch policy (DNS, address rule, limits); bypasses the cache. */
  fetchPolicy?: Partial<FetchPolicy>;
  /** Video elements' frames (motion): a decoder per clip for a video, one frame each for a still. */
  videoFrames?: VideoFrameSource;
  /**
   * Images already loaded by src, kept by the caller across renders of one page (a video's frames):
   * an asset is then neither wrapped nor hashed again on every frame.
   */
  loadedImages?: Map<string, LoadedImage>;
}

/** A video clip's frame as a videoFrameKey names it, at the size its image op draws it. */
export interface VideoFrameRequest {
  assetId: string;
  /** Milliseconds into the clip: the frame shown then (the last one starting at or before it). */
  clipMs: number;
  /** The video element drawing it. */
  elementId: string;
  /** Device pixels the op covers (what the frame is decoded to, never above the clip's own size). */
  deviceWidth: number;
  deviceHeight: number;
}

/** Where video frames come from (src/engine/video/clips.ts); failures are ImageSourceErrors. */
export interface VideoFrameSource {
  /** The clip's picture size, which layout fits into the element like an image's. */
  clipSize(assetId: string): Promise<{ width: number; height: number }>;
  frame(request: VideoFrameRequest): Promise<LoadedImage>;
}

/** How long fetched URL bytes are reused; a changed remote image shows up after this. */
export const URL_CACHE_TTL_MS = 60_000;

interface CachedFetch extends SourceBytes {
  fetchedAt: number;
}

const fetched = new Lru<string, CachedFetch>({
  name: 'fetched-images',
  maxEntries: 64,
  maxWeight: cacheBytes('fetchedImages'),
  weigh: (entry) => entry.bytes.byteLength,
});

export function decodeDataUri(src: string): SourceBytes {
  const comma = src.indexOf(',');
  if (comma < 0) throw new ImageSourceError('malformed data URI');
  const header = src.slice(5, comma);
  const payload = src.slice(comma + 1);
  const mimeType = (header.split(';')[0] ?? '').toLowerCase();
  if (/;base64$/i.test(header)) return { bytes: Buffer.from(payload, 'base64'), mimeType };
  try {
    return { bytes: Buffer.from(decodeURIComponent(payload), 'utf8'), mimeType };
  } catch {
    // Not percent-encoded after all (raw `%` characters): take the text as written.
    return { bytes: Buffer.from(payload, 'utf8'), mimeType };
  }
}

function refusalReason(error: FetchRefused): string {
  const reasons: Record<string, string> = {
    protocol: 'the URL scheme is not allowed',
    'private-address': 'the URL points to a private or loopback address',
    dns: 'the host name could not be resolved',
    'too-large': 'the image is larger than the fetch limit',
    timeout: 'the image fetch timed out',
    'too-many-redirects': 'the URL redirects too many times',
    'http-status': error.message,
    network: 'the image could not be fetched',
  };
  return `image URL refused: ${reasons[error.reason] ?? error.message}`;
}

async function fetchUrl(
  url: string,
  allowPrivate: boolean,
  override?: Partial<FetchPolicy>,
): Promise<SourceBytes> {
  const cacheKey = `${allowPrivate ? 'private' : 'public'}\u0000${url}`;
  const cached = override ? undefined : fetched.get(cacheKey);
  if (cached && Date.now() - cached.fetchedAt < URL_CACHE_TTL_MS) return cached;
  try {
    const { bytes, contentType } = await fetchImageBytes(url, {
      ...defaultImagePolicy(allowPrivate),
      ...override,
    });
    const entry = { bytes: Buffer.from(bytes), mimeType: contentType, fetchedAt: Date.now() };
    if (!override) fetched.set(cacheKey, entry);
    return entry;
  } catch (error) {
    if (error instanceof FetchRefused) throw new ImageSourceError(refusalReason(error));
    throw error;
  }
}

export async function readImageSource(src: string, context: SourceContext): Promise<SourceBytes> {
  switch (classifyImageSrc(src)) {
    case 'asset': {
      const id = assetIdOf(src) ?? '';
      const asset = context.assets[id];
      if (!asset) throw new ImageSourceError(`asset ${id} was not found`);
      return {
        bytes: Buffer.from(asset.bytes.buffer, asset.bytes.byteOffset, asset.bytes.byteLength),
        mimeType: asset.mimeType,
      };
    }
    case 'data':
      return decodeDataUri(src);
    case 'url':
      return fetchUrl(src, context.allowPrivateUrls, context.fetchPolicy);
    default:
      throw new ImageSourceError('the image source is not asset:<id>, an https URL or a data URI');
  }
}

export function clearFetchCache(): void {
  fetched.clear();
}
