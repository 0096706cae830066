/**
 * Loading a document's image sources (and video clips) for the canvas, from the service's own origin only (the
 * studio's CSP allows nothing else): data: URIs as they are; `asset:<id>` and https URLs through
 * the embed image route, which resolves them as a render by this session would (the same asset
 * visibility, the same SSRF guard and limits), so the canvas draws what the server renders.
 */
import type { Api } from '../api.ts';
import type { StudioAsset } from '../editor/contract.ts';

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

/**
 * Where the canvas plays a video asset from: the asset's capability URL from the session's asset
 * list, on the service's own origin (the CSP allows media from nowhere else), with the length the
 * upload's probe found, and its bytes for a blob: URL when that URL cannot seek. Rejects for
 * anything else, and the editor draws the clip as a failed image.
 */
export function videoLoader(api: Api) {
  let listed: Promise<StudioAsset[]> | null = null;
  const list = (fresh: boolean) => {
    if (fresh || !listed) {
      listed = api.listAssets();
      listed.catch(() => {
        listed = null;
      });
    }
    return listed;
  };
  return async (src: string): Promise<{ url: string; durationMs?: number; bytes(): Promise<Blob> }> => {
    const id = /^asset:([A-Za-z0-9_-]{1,64})$/.exec(src)?.[1];
    if (!id) throw new Error('a video plays from an uploaded asset');
    // An asset uploaded since the list was read is found by reading it again, once.
    const asset = (await list(false)).find((a) => a.id === id) ?? (await list(true)).find((a) => a.id === id);
    const video = asset && (asset.kind === 'video' || asset.mimeType.startsWith('video/'));
    const path = asset && video ? ownPath(asset.url) : null;
    if (!asset || !path) throw new Error('the video is not available to this session');
    const durationMs = asset.durationMs ?? asset.media?.durationMs;
    // A capability URL needs no token; the bytes are only fetched when the URL cannot seek.
    const bytes = async () => {
      const response = await fetch(path, { cache: 'force-cache' });
      if (!response.ok) throw new Error(`the video could not be fetched (${response.status})`);
      return response.blob();
    };
    return { url: path, bytes, ...(durationMs !== undefined ? { durationMs } : {}) };
  };
}
