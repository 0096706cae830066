/**
 * The images a page draws, loaded once per source through the shell's `loadImage` (which goes
 * through the service's own origin), plus inline SVG elements turned into images for the few the
 * engine chooses to rasterise, and the frames of video clips (video-frames.ts). Until an image is
 * ready, and when it fails, a placeholder stands in under the same key, so layout and drawing
 * never fail for want of an image.
 */
import type { Page } from '../../../src/engine/browser.ts';
import {
  pageImageSources,
  svgElementImageKey,
  videoFrameKey,
  walkElements,
} from '../../../src/engine/browser.ts';
import { type Drawable, VideoFrameCache, type VideoSource } from './video-frames.ts';

interface Entry {
  state: 'loading' | 'ready' | 'failed';
  image: Drawable | null;
}

export class ImageCache {
  private readonly bySrc = new Map<string, Entry>();
  private readonly bySvg = new Map<string, Entry>();
  private placeholders: { loading: Drawable; failed: Drawable } | null = null;
  /** Bumps whenever an image settles, so layouts made with placeholders are redone. */
  revision = 0;
  /** Images asked for that have neither loaded nor failed yet. */
  private pending = 0;
  /** Null when the shell plays no video: clips then draw as failed images. */
  readonly videos: VideoFrameCache | null;

  constructor(
    private readonly load: (src: string) => Promise<Drawable>,
    private readonly onSettled: () => void,
    loadVideo?: (src: string) => Promise<VideoSource>,
  ) {
    this.videos = loadVideo
      ? new VideoFrameCache(loadVideo, () => this.placeholderImages(), onSettled)
      : null;
  }

  /** Images and video frames asked for that have neither arrived nor failed yet. */
  get loading(): number {
    return this.pending + (this.videos?.loading ?? 0);
  }

  /** Drawables keyed as the layout's image ops name them, for everything this page draws. */
  forPage(page: Page): Map<string, Drawable> {
    const images = new Map<string, Drawable>();
    for (const src of pageImageSources(page))
      images.set(
        src,
        this.resolve(this.bySrc, src, () => this.load(src)),
      );
    for (const { element: el, ancestors } of walkElements(page.elements)) {
      if (el.type === 'svg' && el.visible)
        images.set(
          svgElementImageKey(el.id),
          this.resolve(this.bySvg, el.svg, () => svgImage(el.svg)),
        );
      // The clip time is `trimStartMs`: pageAtTime has put the time shown at the playhead there.
      if (el.type === 'video' && shown(el) && ancestors.every(shown)) {
        const clipMs = Math.max(0, Math.round(el.trimStartMs ?? 0));
        images.set(
          videoFrameKey(el.src, clipMs),
          this.videos ? this.videos.frame(el.src, clipMs) : this.placeholderImages().failed,
        );
      }
    }
    return images;
  }

  failed(src: string): boolean {
    return this.bySrc.get(src)?.state === 'failed';
  }

  private resolve(cache: Map<string, Entry>, key: string, start: () => Promise<Drawable>): Drawable {
    let entry = cache.get(key);
    if (!entry) {
      const created: Entry = { state: 'loading', image: null };
      entry = created;
      cache.set(key, created);
      this.pending++;
      start().then(
        (image) => this.settle(created, 'ready', image),
        () => this.settle(created, 'failed', null),
      );
    }
    const placeholders = this.placeholderImages();
    return entry.image ?? (entry.state === 'failed' ? placeholders.failed : placeholders.loading);
  }

  private settle(entry: Entry, state: Entry['state'], image: Drawable | null): void {
    entry.state = state;
    entry.image = image;
    this.pending--;
    this.revision++;
    this.onSettled();
  }

  private placeholderImages(): { loading: Drawable; failed: Drawable } {
    this.placeholders ??= { loading: placeholder(false), failed: placeholder(true) };
    return this.placeholders;
  }
}

const shown = (el: { visible: boolean; opacity: number }) => el.visible && el.opacity > 0;

/** A grey tile; a failed image also gets a cross, so it is visibly broken rather than blank. */
function placeholder(failed: boolean): Drawable {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 64;
  const ctx = canvas.getContext('2d');
  if (ctx) {
    ctx.fillStyle = failed ? '#e9d6d6' : '#e4e7ec';
    ctx.fillRect(0, 0, 64, 64);
    if (failed) {
      ctx.strokeStyle = '#b05050';
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.moveTo(8, 8);
      ctx.lineTo(56, 56);
      ctx.moveTo(56, 8);
      ctx.lineTo(8, 56);
      ctx.stroke();
    }
  }
  return canvas;
}

/** An inline SVG as an image. A browser's SVG-as-image runs no script and fetches nothing. */
function svgImage(markup: string): Promise<Drawable> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([markup], { type: 'image/svg+xml' }));
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('invalid SVG'));
    };
    img.src = url;
  });
}
