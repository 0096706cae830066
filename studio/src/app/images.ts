/**
 * Loading a document's image sources for the canvas, from the service's own origin only (the
 * studio's CSP allows nothing else): data: URIs as they are; `asset:<id>` and https URLs through
 * the embed image route, which resolves them as a render by this session would (the same asset
 * visibility, the same SSRF guard and limits), so the canvas draws what the server renders.
 */
import type { Api } from '../api.ts';

export type LoadedImage = CanvasImageSource & { width: number; height: number };

/** The same-origin path of a URL the service printed with its PLATEN_BASE_URL, or null. */
export function ownPath(url: string): string | null {
  try {
    const parsed = new URL(url, window.location.origin);
    if (parsed.origin === window.location.origin || parsed.pathname.startsWith('/files/'))
      return parsed.pathname + parsed.search;
  } catch {
    // not a URL
  }
  return null;
}

async function decode(src: string): Promise<LoadedImage> {
  const image = new Image();
  image.decoding = 'async';
  image.src = src;
  await image.decode();
  return image;
}

export function imageLoader(api: Api) {
  const cache = new Map<string, Promise<LoadedImage>>();

  async function load(src: string): Promise<LoadedImage> {
    if (src.startsWith('data:image/')) return decode(src);
    const url = URL.createObjectURL(await api.image(src));
    try {
      return await decode(url);
    } finally {
      URL.revokeObjectURL(url);
    }
  }

  return (src: string): Promise<LoadedImage> => {
    let pending = cache.get(src);
    if (!pending) {
      pending = load(src);
      cache.set(src, pending);
      pending.catch(() => cache.delete(src));
    }
    return pending;
  };
}
