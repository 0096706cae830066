/**
 * Frames of video clips for the canvas. Layout draws a video element as an image under the key
 * `videoFrameKey(src, clipMs)` (design/timeline.ts); the server decodes that frame with ffmpeg,
 * the studio seeks an HTML <video> to `clipMs`, waits for 'seeked' and copies the picture into a
 * canvas, which then stands under the key like any loaded image.
 *
 * One <video> per clip, one seek at a time. While playing, only the newest wanted frame matters:
 * a request made while a seek runs replaces the one waiting, and until the wanted frame is ready
 * the clip's latest frame stands in (a preview that lags a little rather than flashing grey).
 * Copied frames are kept within a pixel budget, oldest dropped first.
 */

export type Drawable = CanvasImageSource & { width: number; height: number };

/** Where the shell says a clip can be played from, and its length as the upload's probe found it. */
export interface VideoSource {
  url: string;
  durationMs?: number;
  /**
   * The clip's bytes, for when `url` cannot seek (a server that answers no Range requests): the
   * editor then plays them from a blob: URL, which always can (the page's CSP must allow blob: media).
   */
  bytes?(): Promise<Blob>;
}

/** Frames kept at most (in pixels, about 96 MB of RGBA): a dozen full-HD frames. */
const FRAME_PIXEL_BUDGET = 24_000_000;
/** A seek that never reports back (a broken file) gives up after this long. */
const SEEK_TIMEOUT_MS = 10_000;
/** How long a sought frame may take to be presented after 'seeked' (see seekTo), paused / playing. */
const SETTLE_WAIT_MS = 1_500;
const PLAYING_WAIT_MS = 150;

interface Clip {
  state: 'loading' | 'ready' | 'failed';
  video: HTMLVideoElement | null;
  durationMs: number | undefined;
  frames: Map<number, HTMLCanvasElement>;
  latest: HTMLCanvasElement | null;
  /** The clip time being sought now. */
  seeking: number | null;
  /** The clip time to seek to next. */
  wanted: number | null;
}

export class VideoFrameCache {
  private readonly clips = new Map<string, Clip>();
  /** Bumps whenever a frame or a clip's length arrives, so what was drawn without it is redone. */
  revision = 0;

  constructor(
    private readonly resolve: (src: string) => Promise<VideoSource>,
    private readonly placeholders: () => { loading: Drawable; failed: Drawable },
    private readonly onSettled: () => void,
  ) {}

  /** Clips loading, seeks running or waiting: until 0 the drawing is not the final one. */
  get loading(): number {
    let n = 0;
    for (const clip of this.clips.values()) {
      if (clip.state === 'loading') n++;
      if (clip.seeking !== null) n++;
      if (clip.wanted !== null) n++;
    }
    return n;
  }

  /** The clip's length once known (the probe's, else the browser's), for looping clips. */
  durationMs(src: string): number | undefined {
    return this.clips.get(src)?.durationMs;
  }

  /** The frame of `src` at `clipMs` (ms, whole), or the best stand-in while it is on its way. */
  frame(src: string, clipMs: number): Drawable {
    const clip = this.clip(src);
    const exact = clip.frames.get(clipMs);
    if (exact) {
      // Recently used: to the end of the eviction order.
      clip.frames.delete(clipMs);
      clip.frames.set(clipMs, exact);
      return exact;
    }
    if (clip.state === 'failed') return this.placeholders().failed;
    if (clip.seeking !== clipMs) clip.wanted = clipMs;
    this.pump(clip);
    return clip.latest ?? this.placeholders().loading;
  }

  private clip(src: string): Clip {
    let clip = this.clips.get(src);
    if (clip) return clip;
    const created: Clip = {
      state: 'loading',
      video: null,
      durationMs: undefined,
      frames: new Map(),
      latest: null,
      seeking: null,
      wanted: null,
    };
    clip = created;
    this.clips.set(src, created);
    this.open(src, created).then(
      () => {
        created.state = 'ready';
        this.changed();
        this.pump(created);
      },
      () => {
        created.state = 'failed';
        created.wanted = null;
        this.changed();
      },
    );
    return created;
  }

  private async open(src: string, clip: Clip): Promise<void> {
    const source = await this.resolve(src);
    let video = await loadVideo(source.url);
    // Without Range support a media element cannot seek (it would stay on the first frame).
    if (!seekable(video) && source.bytes) {
      release(video);
      video = await loadVideo(URL.createObjectURL(await source.bytes()));
    }
    if (!seekable(video)) {
      release(video);
      throw new Error('the video cannot seek');
    }
    clip.video = video;
    const browserMs = Number.isFinite(video.duration) ? Math.round(video.duration * 1000) : undefined;
    clip.durationMs = source.durationMs ?? browserMs;
  }

  private pump(clip: Clip): void {
    const video = clip.video;
    if (clip.state !== 'ready' || !video || clip.seeking !== null || clip.wanted === null) return;
    const clipMs = clip.wanted;
    clip.wanted = null;
    clip.seeking = clipMs;
    const keep = () => {
      const frame = copyFrame(video);
      if (!frame) return;
      clip.frames.set(clipMs, frame);
      clip.latest = frame;
      this.evict();
      this.changed();
    };
    // While playing, another frame is already wanted: wait less for this one's confirmation.
    seekTo(video, clipMs, () => (clip.wanted === null ? SETTLE_WAIT_MS : PLAYING_WAIT_MS), keep)
      .then(keep, () => {
        // A clip that cannot seek would be asked again on every draw: it counts as broken.
        clip.state = 'failed';
        clip.wanted = null;
      })
      .finally(() => {
        clip.seeking = null;
        this.changed();
        this.pump(clip);
      });
  }

  private changed(): void {
    this.revision++;
    this.onSettled();
  }

  /** Lets go of every clip (the editor closed): no element keeps loading or holds memory. */
  dispose(): void {
    for (const clip of this.clips.values()) {
      if (clip.video) release(clip.video);
      clip.frames.clear();
      clip.latest = null;
      clip.wanted = null;
    }
    this.clips.clear();
  }

  /** Drops the least recently used frames beyond the budget (never a clip's latest). */
  private evict(): void {
    let pixels = 0;
    for (const clip of this.clips.values())
      for (const frame of clip.frames.values()) pixels += frame.width * frame.height;
    for (const clip of this.clips.values()) {
      for (const [ms, frame] of clip.frames) {
        if (pixels <= FRAME_PIXEL_BUDGET) return;
        if (frame === clip.latest) continue;
        clip.frames.delete(ms);
        pixels -= frame.width * frame.height;
      }
    }
  }
}

function loadVideo(url: string): Promise<HTMLVideoElement> {
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  video.playsInline = true;
  return new Promise<HTMLVideoElement>((resolve, reject) => {
    video.addEventListener('loadeddata', () => resolve(video), { once: true });
    video.addEventListener('error', () => reject(new Error('the video could not be loaded')), { once: true });
    video.src = url;
  });
}

/** Stops the element's loading and frees its blob: URL, if it played from one. */
function release(video: HTMLVideoElement): void {
  const url = video.src;
  video.removeAttribute('src');
  video.load();
  if (url.startsWith('blob:')) URL.revokeObjectURL(url);
}

/** Whether the element can seek across the clip (not only within what it has buffered). */
function seekable(video: HTMLVideoElement): boolean {
  const ranges = video.seekable;
  if (ranges.length === 0) return false;
  return !Number.isFinite(video.duration) || ranges.end(ranges.length - 1) >= video.duration - 0.05;
}

/**
 * Seeks to `clipMs`. `onSeeked` copies the picture as soon as 'seeked' fires; on a busy machine
 * the element may still hold the previous picture then, so the promise resolves only once the
 * element reports the new frame presented (requestVideoFrameCallback), and the caller copies it
 * again. A seek that lands on the frame already shown presents none: that wait ends after
 * `waitMs()`, the copy from 'seeked' being right then.
 */
function seekTo(
  video: HTMLVideoElement,
  clipMs: number,
  waitMs: () => number,
  onSeeked: () => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let presented = false;
    let seeked = false;
    let settleTimer: ReturnType<typeof setTimeout> | undefined;
    const callback = 'requestVideoFrameCallback' in video;
    const handle = callback ? video.requestVideoFrameCallback(() => finishPresented()) : 0;
    const timer = setTimeout(() => {
      video.removeEventListener('seeked', onSeekedEvent);
      if (callback) video.cancelVideoFrameCallback(handle);
      reject(new Error('the seek did not finish'));
    }, SEEK_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      clearTimeout(settleTimer);
      if (callback) video.cancelVideoFrameCallback(handle);
      resolve();
    };
    function finishPresented() {
      presented = true;
      if (seeked) done();
    }
    function onSeekedEvent() {
      seeked = true;
      onSeeked();
      if (presented || !callback) done();
      else settleTimer = setTimeout(done, waitMs());
    }
    video.addEventListener('seeked', onSeekedEvent, { once: true });
    video.currentTime = clipMs / 1000;
  });
}

function copyFrame(video: HTMLVideoElement): HTMLCanvasElement | null {
  const width = video.videoWidth;
  const height = video.videoHeight;
  if (width <= 0 || height <= 0) return null;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.drawImage(video, 0, 0, width, height);
  return canvas;
}
