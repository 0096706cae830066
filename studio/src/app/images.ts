/**
 * Loading a document's image sources for the canvas, from the service's own origin only (the
 * studio's CSP allows nothing else): `asset:<id>` through the asset's own `/files/…` URL (found in
 * the session's asset list, so only with the asset picker on), data: URIs as they are. Remote https
 * images are refused here: the editor draws its placeholder (the server still renders them).
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

export function imageLoader(api: Api, assetsEnabled: boolean) {
  const cache = new Map<string, Promise<LoadedImage>>();
  let assetUrls: Promise<Map<string, string>> | null = null;
  const assetsById = () => {
    assetUrls ??= api.listAssets().then((items) => new Map(items.map((asset) => [asset.id, asset.url])));
    return assetUrls;
  };

  async function load(src: string): Promise<LoadedImage> {
    if (src.startsWith('data:image/')) return decode(src);
    if (src.startsWith('asset:')) {
      if (!assetsEnabled) throw new Error('assets are not reachable without the asset picker');
      let url = (await assetsById()).get(src.slice('asset:'.length));
      if (!url) {
        // Uploaded since the list was read.
        assetUrls = null;
        url = (await assetsById()).get(src.slice('asset:'.length));
      }
      const path = url ? ownPath(url) : null;
      if (!path) throw new Error(`unknown asset ${src}`);
      return decode(path);
    }
    const path = ownPath(src);
    if (path && src.startsWith(window.location.origin)) return decode(path);
    throw new Error('remote images are not loaded in the studio');
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
