/**
 * The pure core of motion: what a page looks like at time t. Every backend (raster frames, stills
 * at `timeMs`, the studio's preview) draws `pageAtTime`'s page, so the frame at t is the same
 * everywhere. Semantics are documented in docs/design-document.md, "Motion".
 *
 * - Keyframes set absolute values (x, y, opacity, rotation, scale), eased between the keyframes
 *   that give each property; before the first and after the last the nearest value holds.
 * - Preset animations then add on top: offsets add, opacity and scale multiply. An `in` preset
 *   goes from its start state to the element's own; an `out` preset from the element's own to
 *   its end state.
 * - `typewriter` reveals a text's characters (grapheme by grapheme) without moving any: the
 *   hidden ones are laid out transparent, so lines, auto-fit and alignment never change.
 * - A video element's `trimStartMs` becomes the clip time shown at t.
 */
import type { Element, TextElement, VideoElement } from './elements.ts';
import {
  type Animation,
  DEFAULT_ANIMATION_MS,
  DEFAULT_PAGE_DURATION_MS,
  type Easing,
  type Keyframe,
} from './motion.ts';
import type { Span } from './rich-text.ts';
import type { DesignDocument, Page } from './schema.ts';
import { mapElements, walkElements } from './tree.ts';

/** The state motion gives an element at one time, relative to its own fields. */
export interface Pose {
  x: number;
  y: number;
  opacity: number;
  rotation: number;
  scale: number;
  /** Share of a text's graphemes shown (1: all). */
  reveal: number;
}

export interface PageAtTime {
  page: Page;
  /** Elements drawn scaled about their centre (ids → factor), for layout's `scales`. */
  scales: ReadonlyMap<string, number>;
}

export interface TimeOptions {
  /** Length of each video asset, to loop clips (`asset:<id>` → ms); a clip not listed never wraps. */
  mediaDurationMs?: (src: string) => number | undefined;
}

// CSS's named timing functions (CSS Easing Functions Level 1, section 2.2).
const BEZIERS: Record<Exclude<Easing, 'linear'>, [number, number, number, number]> = {
  ease: [0.25, 0.1, 0.25, 1],
  'ease-in': [0.42, 0, 1, 1],
  'ease-out': [0, 0, 0.58, 1],
  'ease-in-out': [0.42, 0, 0.58, 1],
};

/** A cubic Bézier timing function solved for x by bisection: exact to 1e-7 in 40 steps, no state. */
function bezier(x1: number, y1: number, x2: number, y2: number, x: number): number {
  const at = (a: number, b: number, t: number) => 3 * a * t * (1 - t) ** 2 + 3 * b * t * t * (1 - t) + t ** 3;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (at(x1, x2, mid) < x) lo = mid;
    else hi = mid;
  }
  return at(y1, y2, (lo + hi) / 2);
}

export function ease(easing: Easing, progress: number): number {
  const p = Math.min(1, Math.max(0, progress));
  if (easing === 'linear' || p === 0 || p === 1) return p;
  const [x1, y1, x2, y2] = BEZIERS[easing];
  return bezier(x1, y1, x2, y2, p);
}

/** The overshooting curve of `pop` (easeOutBack): reaches 1.1 near 70% and settles at 1. */
function backOut(p: number): number {
  const c = 1.70158;
  return 1 + (c + 1) * (p - 1) ** 3 + c * (p - 1) ** 2;
}

export function pageDurationMs(page: Page): number {
  return page.durationMs ?? DEFAULT_PAGE_DURATION_MS;
}

/** When an animation starts and how long it runs, on a page of the given length. */
export function animationWindow(
  animation: Animation,
  pageMs: number,
): { startMs: number; durationMs: number } {
  const durationMs = animation.durationMs ?? DEFAULT_ANIMATION_MS;
  const startMs = animation.delayMs ?? (animation.phase === 'in' ? 0 : Math.max(0, pageMs - durationMs));
  return { startMs, durationMs };
}

/**
 * The default time of a still render of a page: when every `in` animation has ended, so a PNG or
 * PDF of an animated template looks finished (the contract's rule). 0 for a page without motion.
 */
export function stillTimeMs(page: Page): number {
  const pageMs = pageDurationMs(page);
  let end = 0;
  for (const { element } of walkElements(page.elements)) {
    for (const animation of element.animations ?? []) {
      if (animation.phase !== 'in') continue;
      const { startMs, durationMs } = animationWindow(animation, pageMs);
      end = Math.max(end, startMs + durationMs);
    }
  }
  return end;
}

/** Distance a slide travels: half the page's side in the direction of travel. */
function slideDistance(page: Page, preset: string): number {
  return preset === 'slide-left' || preset === 'slide-right' ? page.width / 2 : page.height / 2;
}

/**
 * The pose a preset gives at `amount` of the way from its hidden state (0) to the element's own (1).
 * `in` presets run 0 → 1, `out` presets 1 → 0 (slides then leave in their own direction).
 */
function presetPose(
  preset: Animation['preset'],
  amount: number,
  phase: 'in' | 'out',
  page: Page,
): Partial<Pose> {
  const hidden = 1 - amount;
  switch (preset) {
    case 'fade':
      return { opacity: amount };
    case 'slide-left':
    case 'slide-right':
    case 'slide-up':
    case 'slide-down': {
      // An `in` slide arrives moving in the named direction; an `out` slide leaves that way.
      const forward = preset === 'slide-left' || preset === 'slide-up' ? -1 : 1;
      const offset = slideDistance(page, preset) * hidden * (phase === 'in' ? -forward : forward);
      const horizontal = preset === 'slide-left' || preset === 'slide-right';
      return { opacity: amount, ...(horizontal ? { x: offset } : { y: offset }) };
    }
    case 'zoom':
      return { scale: 0.5 + 0.5 * amount, opacity: amount };
    case 'pop':
      return { scale: Math.max(0, amount), opacity: Math.min(1, amount * 3) };
    case 'typewriter':
      return { reveal: amount };
  }
}

function keyframeValue(
  keyframes: readonly Keyframe[],
  property: 'x' | 'y' | 'opacity' | 'rotation' | 'scale',
  timeMs: number,
): number | undefined {
  let before: Keyframe | undefined;
  let after: Keyframe | undefined;
  for (const frame of keyframes) {
    if (frame[property] === undefined) continue;
    if (frame.timeMs <= timeMs && (!before || frame.timeMs >= before.timeMs)) before = frame;
    if (frame.timeMs > timeMs && (!after || frame.timeMs < after.timeMs)) after = frame;
  }
  if (!before) return after?.[property];
  if (!after) return before[property];
  const from = before[property] as number;
  const to = after[property] as number;
  const progress = (timeMs - before.timeMs) / (after.timeMs - before.timeMs);
  return from + (to - from) * ease(after.easing ?? 'ease-in-out', progress);
}

/** The pose of one element at `timeMs` from the scene's start, on a page `pageMs` long. */
export function poseAt(element: Element, timeMs: number, page: Page): Pose {
  const keyframes = element.keyframes ?? [];
  const pose: Pose = {
    x: keyframeValue(keyframes, 'x', timeMs) ?? element.x,
    y: keyframeValue(keyframes, 'y', timeMs) ?? element.y,
    opacity: keyframeValue(keyframes, 'opacity', timeMs) ?? element.opacity,
    rotation: keyframeValue(keyframes, 'rotation', timeMs) ?? element.rotation,
    scale: keyframeValue(keyframes, 'scale', timeMs) ?? 1,
    reveal: 1,
  };
  const pageMs = pageDurationMs(page);
  for (const animation of element.animations ?? []) {
    const { startMs, durationMs } = animationWindow(animation, pageMs);
    const progress = (timeMs - startMs) / durationMs;
    // An `in` animation holds its hidden state before it starts; an `out` one its end state after.
    const eased =
      animation.preset === 'pop' && animation.easing === undefined
        ? backOut(Math.min(1, Math.max(0, progress)))
        : ease(animation.easing ?? (animation.preset === 'typewriter' ? 'linear' : 'ease-out'), progress);
    const amount = animation.phase === 'in' ? eased : 1 - eased;
    const part = presetPose(animation.preset, amount, animation.phase, page);
    pose.x += part.x ?? 0;
    pose.y += part.y ?? 0;
    pose.opacity *= Math.min(1, Math.max(0, part.opacity ?? 1));
    pose.scale *= part.scale ?? 1;
    pose.reveal = Math.min(pose.reveal, part.reveal ?? 1);
  }
  pose.opacity = Math.min(1, Math.max(0, pose.opacity));
  pose.scale = Math.max(0, pose.scale);
  pose.reveal = Math.min(1, Math.max(0, pose.reveal));
  return pose;
}

const TRANSPARENT = '#00000000';
let segmenter: Intl.Segmenter | undefined;
function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/**
 * The text with its first `reveal` share of graphemes shown and the rest transparent: spans keep
 * every style, so the layout is the finished text's.
 */
export function revealText(element: TextElement, reveal: number): TextElement {
  if (reveal >= 1) return element;
  const spans: Span[] = element.spans ?? [{ text: element.text }];
  const total = spans.reduce((sum, span) => sum + graphemes(span.text).length, 0);
  let shown = Math.floor(total * reveal);
  const out: Span[] = [];
  for (const span of spans) {
    const parts = graphemes(span.text);
    const visible = Math.min(parts.length, shown);
    shown -= visible;
    if (visible > 0) out.push({ ...span, text: parts.slice(0, visible).join('') });
    if (visible < parts.length) {
      // Hidden glyphs draw nothing at all: no colour, underline, background or link.
      const { background: _b, link: _l, underline: _u, strike: _s, ...rest } = span;
      out.push({ ...rest, text: parts.slice(visible).join(''), color: TRANSPARENT });
    }
  }
  // Strokes and highlights belong to the visible glyphs only; a fully hidden text draws nothing.
  if (out.every((span) => span.color === TRANSPARENT)) return { ...element, opacity: 0 };
  return { ...element, text: '', spans: out };
}

/** The clip time a video element shows at `timeMs` into its scene. */
export function clipTimeMs(element: VideoElement, timeMs: number, options: TimeOptions): number {
  const start = element.trimStartMs ?? 0;
  const length = options.mediaDurationMs?.(element.src);
  const at = start + Math.max(0, timeMs);
  if (length === undefined || length <= 0) return at;
  if (element.loop) {
    const span = Math.max(1, length - start);
    return start + (Math.max(0, timeMs) % span);
  }
  return Math.min(at, Math.max(0, length - 1));
}

function hasMotion(element: Element): boolean {
  return (
    (element.animations?.length ?? 0) > 0 || (element.keyframes?.length ?? 0) > 0 || element.type === 'video'
  );
}

/**
 * The page as it stands `timeMs` after its scene starts: each element's fields replaced by its
 * pose, texts revealed, video clips at their time. A page without motion comes back unchanged.
 */
export function pageAtTime(page: Page, timeMs: number, options: TimeOptions = {}): PageAtTime {
  const scales = new Map<string, number>();
  let moved = false;
  for (const { element } of walkElements(page.elements)) if (hasMotion(element)) moved = true;
  if (!moved) return { page, scales };
  const elements = mapElements(page.elements, (element) => {
    if (!hasMotion(element)) return element;
    const pose = poseAt(element, timeMs, page);
    if (pose.scale !== 1) scales.set(element.id, pose.scale);
    let next: Element = { ...element, x: pose.x, y: pose.y, opacity: pose.opacity, rotation: pose.rotation };
    if (next.type === 'text' && pose.reveal < 1) next = revealText(next, pose.reveal);
    if (next.type === 'video')
      next = { ...next, trimStartMs: clipTimeMs(next, timeMs, options), loop: false };
    return next;
  });
  return { page: { ...page, elements }, scales };
}

/** One scene's part of a frame: which page, at what time into it, and how it is composited. */
export interface SceneLayer {
  pageIndex: number;
  timeMs: number;
  /** 1 draws it as it is; a fading-in scene draws over the previous one with this alpha. */
  alpha: number;
  /** Horizontal shift in page units (a slide transition moves both scenes). */
  offsetX: number;
}

export interface Scene {
  pageIndex: number;
  startMs: number;
  durationMs: number;
}

/** The scenes of a video of these pages in order: each starts as the previous one's transition starts. */
export function scenesOf(pages: readonly Page[]): { scenes: Scene[]; durationMs: number } {
  const scenes: Scene[] = [];
  let start = 0;
  pages.forEach((page, pageIndex) => {
    const durationMs = pageDurationMs(page);
    scenes.push({ pageIndex, startMs: start, durationMs });
    const overlap = pageIndex < pages.length - 1 ? (page.transition?.durationMs ?? 0) : 0;
    start += durationMs - overlap;
  });
  const last = scenes.at(-1);
  return { scenes, durationMs: last ? last.startMs + last.durationMs : 0 };
}

/** What to draw for the video frame at `timeMs`: one scene, or two during a transition (bottom first). */
export function layersAt(pages: readonly Page[], timeMs: number): SceneLayer[] {
  const { scenes } = scenesOf(pages);
  const index = scenes.findLastIndex((scene) => scene.startMs <= timeMs);
  const current = scenes[Math.max(0, index)] as Scene;
  const previous = index > 0 ? (scenes[index - 1] as Scene) : undefined;
  const here: SceneLayer = {
    pageIndex: current.pageIndex,
    timeMs: timeMs - current.startMs,
    alpha: 1,
    offsetX: 0,
  };
  if (!previous || timeMs >= previous.startMs + previous.durationMs) return [here];
  const page = pages[previous.pageIndex] as Page;
  const transition = page.transition;
  const width = pages[current.pageIndex]?.width ?? page.width;
  const progress = transition ? (timeMs - current.startMs) / transition.durationMs : 1;
  const eased = ease('ease-in-out', progress);
  const before: SceneLayer = {
    pageIndex: previous.pageIndex,
    timeMs: timeMs - previous.startMs,
    alpha: 1,
    offsetX: 0,
  };
  if (transition?.type === 'slide') {
    // The next scene pushes the previous one out to the left.
    return [
      { ...before, offsetX: -width * eased },
      { ...here, offsetX: width * (1 - eased) },
    ];
  }
  return [before, { ...here, alpha: eased }];
}

/** Frames of a video `durationMs` long at `fps`: one for the start of each frame period. */
export function frameCount(durationMs: number, fps: number): number {
  return Math.max(1, Math.round((durationMs * fps) / 1000));
}

/** The time of frame `index`, in ms from the video's start. */
export function frameTimeMs(index: number, fps: number): number {
  return (index * 1000) / fps;
}

/**
 * The image key of a video clip's frame at `clipMs` (milliseconds, rounded): layout draws it like
 * an image, and each host supplies the decoded frame under this key (ffmpeg on the server, a
 * seeked <video> in the studio).
 */
export function videoFrameKey(src: string, clipMs: number): string {
  return `video:${src.slice('asset:'.length)}@${Math.max(0, Math.round(clipMs))}`;
}

/** The asset id and clip time of a videoFrameKey, or null for any other image key. */
export function parseVideoFrameKey(key: string): { assetId: string; clipMs: number } | null {
  const match = /^video:([A-Za-z0-9_-]{1,64})@(\d{1,9})$/.exec(key);
  return match ? { assetId: match[1] as string, clipMs: Number(match[2]) } : null;
}

/** Media assets a document plays (video elements and the soundtrack), each once. */
export function mediaSources(doc: Pick<DesignDocument, 'pages' | 'audio'>): string[] {
  const sources = new Set<string>();
  for (const page of doc.pages)
    for (const { element } of walkElements(page.elements))
      if (element.type === 'video') sources.add(element.src);
  if (doc.audio) sources.add(doc.audio.src);
  return [...sources];
}
