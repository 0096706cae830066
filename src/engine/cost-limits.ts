/**
 * The one rule for what a render may cost, from the document alone (src/design/cost.ts counts,
 * limits.ts bounds). The render service answers a problem with 400 VALIDATION_FAILED before
 * charging; the engine's job check refuses it again for callers that skip the service (the CLI).
 * Elements and spans are bounded per page; the work that adds up across pages (effect pixels,
 * redraws under effect groups, barcode bytes, auto-fit styles) per render.
 */
import {
  type AudioTrack,
  type Element,
  frameCount,
  type Page,
  pageCost,
  scenesOf,
  textLength,
  walkElements,
} from '../design/index.ts';
import { renderLimits } from './limits.ts';
import { isVideoFormat, type MediaInfo, type OutputFormat } from './types.ts';
import { movingFrom } from './video/moving.ts';

export interface CostProblem {
  pageId: string;
  /** Path from the page: `['elements', 2]`, or `['elements']` for the page as a whole. */
  path: (string | number)[];
  message: string;
  reason: string;
  /** The problem is a render option's (`fps`), not the page's: answer it at that option. */
  option?: 'fps';
  /** The problem is the document's soundtrack: its path from the document root (`['audio']`). */
  documentPath?: (string | number)[];
}

/** Video formats: what the cost of a video depends on besides its pages. */
export interface VideoCostOptions {
  /** Frames per second (default 30; GIF 15). */
  fps?: number;
  /** The document's soundtrack (`document.audio`). */
  audio?: AudioTrack | undefined;
  /** The probe of each played asset (`asset:<id>` → info), where known: their lengths are bounded. */
  media?: (src: string) => MediaInfo | undefined;
}

/** Pixels per unit that effects are drawn at: the raster scale, or the PDF layers' scale. */
export const effectScale = (format: OutputFormat, scale: number): number =>
  format === 'pdf' ? renderLimits.pdfRasterScale : scale;

export function renderCostProblem(
  pages: readonly Page[],
  format: OutputFormat,
  scale: number,
  video: VideoCostOptions = {},
): CostProblem | null {
  const pixelsPerUnit = effectScale(format, scale);
  const total = { effectPixels: 0, redraws: 0, barcodeBytes: 0, autoFitStyles: 0 };
  for (const page of pages) {
    const cost = pageCost(page, pixelsPerUnit);
    const at = (path: (string | number)[] | null, message: string, reason: string): CostProblem => ({
      pageId: page.id,
      path: path ?? ['elements'],
      message,
      reason,
    });
    if (cost.elements > renderLimits.maxElementsPerPage)
      return at(null, `more than ${renderLimits.maxElementsPerPage} elements`, 'too many elements');
    if (cost.spans > renderLimits.maxSpansPerPage)
      return at(null, `more than ${renderLimits.maxSpansPerPage} text spans`, 'too many spans');
    // Stills decode a frame of each clip too, each through an ffmpeg process.
    let clips = 0;
    for (const { element } of walkElements(page.elements)) if (element.type === 'video') clips++;
    if (clips > renderLimits.maxVideoElementsPerPage)
      return at(
        null,
        `more than ${renderLimits.maxVideoElementsPerPage} video elements`,
        'too many video elements',
      );
    total.effectPixels += cost.effectPixels;
    total.redraws += cost.redraws;
    total.barcodeBytes += cost.barcodeBytes;
    total.autoFitStyles += cost.autoFitStyles;
    if (total.effectPixels > renderLimits.maxEffectPixels) {
      const megapixels = Math.round(total.effectPixels / 1e6);
      return at(
        cost.costliest,
        `shadows, blurs and filters would pass over ${megapixels} megapixels at ${pixelsPerUnit} pixels a unit; the limit is ${renderLimits.maxEffectPixels / 1e6} a render`,
        'effects too costly',
      );
    }
    if (total.redraws > renderLimits.maxRedraws)
      return at(
        null,
        `content under groups with effects would be drawn ${total.redraws} times over (elements and each 100 characters, doubled per such group around them); the limit is ${renderLimits.maxRedraws}`,
        'effect groups too costly',
      );
    if (total.barcodeBytes > renderLimits.maxBarcodeBytes)
      return at(
        null,
        `barcode values add up to ${total.barcodeBytes} bytes; the limit is ${renderLimits.maxBarcodeBytes} a render`,
        'barcodes too costly',
      );
    if (total.autoFitStyles > renderLimits.maxAutoFitStyles)
      return at(
        null,
        `auto-fit texts have ${total.autoFitStyles} distinct span styles to measure; the limit is ${renderLimits.maxAutoFitStyles} a render`,
        'auto-fit too costly',
      );
  }
  return isVideoFormat(format)
    ? videoCostProblem(pages, { format, fps: video.fps, scale, audio: video.audio }, video.media)
    : null;
}

/** The frame rate a video gets: the job's, or 30 (GIF 15). */
export const videoFps = (format: OutputFormat, fps: number | undefined): number =>
  fps ?? (format === 'gif' ? 15 : 30);

/** yuv420p halves the chroma planes: a side rounds up to even (the last row or column repeated). */
export const evenSide = (pixels: number): number => pixels + (pixels % 2);

/** Output pixels of a video frame: the first page at `scale`, each side rounded up to even for MP4 and WebM. */
export function videoFrameSize(page: Page, format: OutputFormat, scale: number): [number, number] {
  const width = Math.max(1, Math.round(page.width * scale));
  const height = Math.max(1, Math.round(page.height * scale));
  return format === 'gif' ? [width, height] : [evenSide(width), evenSide(height)];
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(2))} s`;

/**
 * What makes a video too costly, from the document alone (and the played assets' probes, when
 * given), checked before any frame is drawn: its frame rate, pages of one size, its length, frames
 * × pixels (the encoder's work: see limits.ts for the measured budget), the effects that move (drawn
 * again each frame), how many sounds are mixed and how long the played assets are.
 */
export function videoCostProblem(
  pages: readonly Page[],
  job: {
    format: OutputFormat;
    fps?: number | undefined;
    scale?: number | undefined;
    /** The document's soundtrack (`document.audio`). */
    audio?: AudioTrack | undefined;
  },
  media?: (src: string) => MediaInfo | undefined,
): CostProblem | null {
  const first = pages[0];
  if (!first) return null;
  const gif = job.format === 'gif';
  const fps = videoFps(job.format, job.fps);
  const maxFps = gif ? renderLimits.maxGifFps : renderLimits.maxFps;
  if (!Number.isInteger(fps) || fps < renderLimits.minFps || fps > maxFps)
    return {
      pageId: first.id,
      path: [],
      option: 'fps',
      message: `the frame rate (fps) must be a whole number from ${renderLimits.minFps} to ${maxFps}${gif ? ' for GIF' : ''}`,
      reason: 'invalid fps',
    };
  for (const page of pages) {
    if (page.width !== first.width || page.height !== first.height)
      return {
        pageId: page.id,
        path: [],
        message: `pages differ in size: every page of a video must be ${first.width}×${first.height} like the first ('${first.id}')`,
        reason: 'pages differ in size',
      };
  }
  const { scenes, durationMs } = scenesOf(pages);
  if (durationMs > renderLimits.maxVideoMs) {
    const over = scenes.find((scene) => scene.startMs + scene.durationMs > renderLimits.maxVideoMs);
    const page = pages[over?.pageIndex ?? 0] ?? first;
    return {
      pageId: page.id,
      path: ['durationMs'],
      message: `the video would be ${seconds(durationMs)} long; the limit is ${seconds(renderLimits.maxVideoMs)}`,
      reason: 'video too long',
    };
  }
  const scale = job.scale ?? 1;
  const [width, height] = videoFrameSize(first, job.format, scale);
  const frames = frameCount(durationMs, fps);
  const framePixels = frames * width * height;
  const budget = gif ? renderLimits.maxGifFramePixels : renderLimits.maxVideoFramePixels;
  if (framePixels > budget)
    return {
      pageId: first.id,
      path: [],
      message: `${frames} frames of ${width}×${height} pixels are ${Math.round(framePixels / 1e6)} megapixels to encode; the limit is ${budget / 1e6} for ${gif ? 'a GIF' : 'a video'} (a lower fps, a shorter video or a smaller size fits)`,
      reason: 'video too large',
    };
  let movingEffects = 0;
  let sounds = 0;
  let textFrames = 0;
  let decodedPixels = 0;
  for (const scene of scenes) {
    const page = pages[scene.pageIndex] as Page;
    const from = movingFrom(page);
    const movingPart = { ...page, elements: page.elements.slice(from) };
    const moving = pageCost(movingPart, scale);
    const sceneFrames = frameCount(scene.durationMs, fps);
    // An element scaled up by keyframes or a pop draws its effects over that much more area; GIF
    // draws every frame twice (its palette pass, then the mapping pass).
    const grown = maxScale(movingPart.elements) ** 2;
    movingEffects += moving.effectPixels * grown * sceneFrames * (gif ? 2 : 1);
    if (movingEffects > renderLimits.maxVideoEffectPixels) {
      const path = moving.costliest ? [...moving.costliest] : ['elements'];
      if (typeof path[1] === 'number') path[1] += from;
      return {
        pageId: page.id,
        path,
        message: `moving shadows, blurs and filters would pass over ${Math.round(movingEffects / 1e6)} megapixels over all frames; the limit is ${renderLimits.maxVideoEffectPixels / 1e6} a video`,
        reason: 'effects too costly',
      };
    }
    // Everything from the first moving element up is laid out again each frame: text shaping is
    // the costliest part (about 5 µs a character on the 2-core machine).
    for (const { element } of walkElements(movingPart.elements))
      if (element.type === 'text') textFrames += textLength(element) * sceneFrames;
    if (textFrames > renderLimits.maxVideoTextFrames)
      return {
        pageId: page.id,
        path: ['elements'],
        message: `text laid out again on every frame would be ${Math.round(textFrames / 1e6)} million characters over all frames; the limit is ${renderLimits.maxVideoTextFrames / 1e6} million a video (less text under moving elements, fewer frames or a shorter video fits)`,
        reason: 'text too costly',
      };
    for (const { element, path } of walkElements(page.elements)) {
      if (element.type !== 'video') continue;
      const info = media?.(element.src);
      const problem = mediaProblem(info, `the clip ${element.src}`) ?? loopProblem(element, info);
      if (problem) return { pageId: page.id, path, ...problem };
      if (!element.muted && (info?.hasAudio ?? true) && !gif) sounds++;
      // Each clip is decoded at the video's frame rate at its own size, up to the page's.
      const clipPixels = info?.width && info.height ? info.width * info.height : width * height;
      decodedPixels += Math.min(clipPixels, width * height * 4) * sceneFrames;
    }
  }
  if (framePixels + decodedPixels > budget)
    return {
      pageId: first.id,
      path: [],
      message: `${frames} frames of ${width}×${height} pixels and the clips they play are ${Math.round((framePixels + decodedPixels) / 1e6)} megapixels to decode and encode; the limit is ${budget / 1e6} for ${gif ? 'a GIF' : 'a video'}`,
      reason: 'video too large',
    };
  if (job.audio && !gif) {
    const problem = mediaProblem(media?.(job.audio.src), `the soundtrack ${job.audio.src}`);
    if (problem) return { pageId: first.id, path: [], documentPath: ['audio'], ...problem };
    if (media?.(job.audio.src)?.hasAudio ?? true) sounds++;
  }
  if (sounds > renderLimits.maxSoundSources)
    return {
      pageId: first.id,
      path: [],
      message: `${sounds} sounds would be mixed (the soundtrack and every clip not muted); the limit is ${renderLimits.maxSoundSources}`,
      reason: 'too many sounds',
    };
  return null;
}

/** The largest scale any keyframe or preset gives these elements or their children. */
function maxScale(elements: readonly Element[]): number {
  let largest = 1;
  for (const { element } of walkElements(elements)) {
    for (const frame of element.keyframes ?? []) largest = Math.max(largest, frame.scale ?? 1);
    // pop overshoots by about 10 %.
    if (element.animations?.some((animation) => animation.preset === 'pop'))
      largest = Math.max(largest, 1.11);
  }
  return largest;
}

/** A short loop restarts its decoder on every pass: at least half a second must play. */
const MIN_LOOP_MS = 500;

function loopProblem(
  element: { trimStartMs?: number | undefined; loop?: boolean | undefined; src: string },
  info: MediaInfo | undefined,
): Pick<CostProblem, 'message' | 'reason'> | null {
  if (!info) return null;
  const start = element.trimStartMs ?? 0;
  if (start >= info.durationMs)
    return {
      message: `trimStartMs ${start} is past the end of ${element.src} (${info.durationMs} ms long)`,
      reason: 'trim past the end',
    };
  if (element.loop && info.durationMs - start < MIN_LOOP_MS)
    return {
      message: `a looping clip must play at least ${MIN_LOOP_MS} ms from trimStartMs; ${element.src} plays ${info.durationMs - start} ms`,
      reason: 'loop too short',
    };
  return null;
}

function mediaProblem(
  info: MediaInfo | undefined,
  what: string,
): Pick<CostProblem, 'message' | 'reason'> | null {
  if (!info || info.durationMs <= renderLimits.maxMediaMs) return null;
  return {
    message: `${what} is ${seconds(info.durationMs)} long; a render plays assets of at most ${seconds(renderLimits.maxMediaMs)}`,
    reason: 'media too long',
  };
}
