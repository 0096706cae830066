/**
 * Pure operations behind the timeline and the motion fields: the rows of the timeline (every
 * element, nested ones under their group), a bar's place on the time axis, moving and stretching
 * a bar, adding and removing animations, and keyframes captured from the element's own fields.
 * Each returns new values; the panels commit them through `updateElement`, whose schema check
 * refuses anything the server would.
 */
import {
  type Animation,
  type AnimationPreset,
  animationWindow,
  DEFAULT_ANIMATION_MS,
  type Element,
  type Keyframe,
  motionBounds,
} from '../../../src/engine/browser.ts';

/** Keyboard steps on a bar: arrows move it this far, Shift+arrows stretch it this much. */
export const BAR_STEP_MS = 100;
/** The shortest bar a drag or a key makes (the schema allows 1 ms, which no one can see). */
export const MIN_BAR_MS = 100;
/** Pointer drags land on this grid, so dragged times read as round numbers. */
export const DRAG_GRID_MS = 10;

export const PRESET_LABELS: Record<AnimationPreset, string> = {
  fade: 'Fade',
  'slide-left': 'Slide left',
  'slide-right': 'Slide right',
  'slide-up': 'Slide up',
  'slide-down': 'Slide down',
  zoom: 'Zoom',
  pop: 'Pop',
  typewriter: 'Typewriter',
};

/** "Fade in", "Slide left out". */
export function animationName(animation: Pick<Animation, 'preset' | 'phase'>): string {
  return `${PRESET_LABELS[animation.preset]} ${animation.phase}`;
}

export interface TimelineRow {
  element: Element;
  /** 0 on the page, 1 inside a group, … */
  depth: number;
}

/** Every element, top of the stack first as in the layers panel, a group's children under it. */
export function timelineRows(elements: readonly Element[], depth = 0): TimelineRow[] {
  const rows: TimelineRow[] = [];
  for (const element of [...elements].reverse()) {
    rows.push({ element, depth });
    if (element.type === 'group') rows.push(...timelineRows(element.elements, depth + 1));
  }
  return rows;
}

export interface BarWindow {
  startMs: number;
  durationMs: number;
}

/** Where a bar sits, as the timeline computes it (an `out` without a delay ends with the page). */
export function barWindow(animation: Animation, pageMs: number): BarWindow {
  return animationWindow(animation, pageMs);
}

/**
 * Lanes for a row's bars, so bars that overlap in time sit on separate lines: each bar takes the
 * first lane whose last bar has ended. Returns the lane of each window, in the given order.
 */
export function assignLanes(windows: readonly BarWindow[]): number[] {
  const order = windows.map((w, index) => ({ ...w, index })).sort((a, b) => a.startMs - b.startMs);
  const laneEnds: number[] = [];
  const lanes: number[] = new Array(windows.length).fill(0);
  for (const w of order) {
    let lane = laneEnds.findIndex((end) => end <= w.startMs);
    if (lane < 0) lane = laneEnds.length;
    laneEnds[lane] = w.startMs + w.durationMs;
    lanes[w.index] = lane;
  }
  return lanes;
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/**
 * The animation moved by `deltaMs`, kept on the page: its start becomes an explicit `delayMs`
 * (an `out` animation no longer follows the page's end once it has been placed).
 */
export function moveAnimation(animation: Animation, deltaMs: number, pageMs: number): Animation {
  const { startMs, durationMs } = barWindow(animation, pageMs);
  const latest = Math.max(0, pageMs - durationMs, startMs);
  return { ...animation, delayMs: clamp(Math.round(startMs + deltaMs), 0, latest) };
}

/** The animation stretched by `deltaMs` at its end; its start stays where it is drawn. */
export function resizeAnimation(animation: Animation, deltaMs: number, pageMs: number): Animation {
  const { startMs, durationMs } = barWindow(animation, pageMs);
  const longest = Math.max(MIN_BAR_MS, pageMs - startMs, durationMs);
  return {
    ...animation,
    delayMs: startMs,
    durationMs: clamp(Math.round(durationMs + deltaMs), MIN_BAR_MS, longest),
  };
}

/** `ms` on the drag grid. */
export function snap(ms: number): number {
  return Math.round(ms / DRAG_GRID_MS) * DRAG_GRID_MS;
}

/** The animation a quick "add" gives: a fade in first, then a fade out, then fade ins again. */
export function nextAnimation(element: Element): Animation {
  const animations = element.animations ?? [];
  const hasIn = animations.some((a) => a.phase === 'in');
  const hasOut = animations.some((a) => a.phase === 'out');
  const phase = hasIn && !hasOut ? 'out' : 'in';
  return { preset: 'fade', phase, durationMs: DEFAULT_ANIMATION_MS };
}

/** The element's animations with one more, or null when it has the most the schema allows. */
export function withAnimation(element: Element, animation: Animation): Animation[] | null {
  const animations = element.animations ?? [];
  if (animations.length >= motionBounds.animationsPerElement) return null;
  return [...animations, animation];
}

/** The element's animations with the one at `index` replaced. */
export function replaceAnimation(element: Element, index: number, animation: Animation): Animation[] {
  return (element.animations ?? []).map((a, i) => (i === index ? animation : a));
}

/** The element's animations without the one at `index`; undefined (the field left out) when none remain. */
export function withoutAnimation(element: Element, index: number): Animation[] | undefined {
  const rest = (element.animations ?? []).filter((_, i) => i !== index);
  return rest.length > 0 ? rest : undefined;
}

/**
 * The element's keyframes with one at `timeMs` holding its own x, y, opacity and rotation (what
 * the person placed while editing); a keyframe already at that time is replaced, keeping its
 * scale and easing. Sorted by time. Null when the element has the most keyframes allowed.
 */
export function captureKeyframe(element: Element, timeMs: number): Keyframe[] | null {
  const at = Math.round(clamp(timeMs, 0, motionBounds.timeMs));
  const keyframes = element.keyframes ?? [];
  const existing = keyframes.find((k) => k.timeMs === at);
  if (!existing && keyframes.length >= motionBounds.keyframesPerElement) return null;
  const frame: Keyframe = {
    ...existing,
    timeMs: at,
    x: element.x,
    y: element.y,
    opacity: element.opacity,
    rotation: element.rotation,
  };
  return [...keyframes.filter((k) => k.timeMs !== at), frame].sort((a, b) => a.timeMs - b.timeMs);
}

/** The element's keyframes without the one at `index`; undefined when none remain. */
export function withoutKeyframe(element: Element, index: number): Keyframe[] | undefined {
  const rest = (element.keyframes ?? []).filter((_, i) => i !== index);
  return rest.length > 0 ? rest : undefined;
}

/** The element's keyframes with the one at `index` moved to `timeMs`, sorted again. */
export function retimeKeyframe(element: Element, index: number, timeMs: number): Keyframe[] {
  const at = Math.round(clamp(timeMs, 0, motionBounds.timeMs));
  return (element.keyframes ?? [])
    .map((k, i) => (i === index ? { ...k, timeMs: at } : k))
    .sort((a, b) => a.timeMs - b.timeMs);
}

/** A keyframe's values in words, for its list entry and its accessible name. */
export function describeKeyframe(keyframe: Keyframe): string {
  const parts: string[] = [];
  if (keyframe.x !== undefined) parts.push(`x ${round2(keyframe.x)}`);
  if (keyframe.y !== undefined) parts.push(`y ${round2(keyframe.y)}`);
  if (keyframe.opacity !== undefined) parts.push(`opacity ${Math.round(keyframe.opacity * 100)}%`);
  if (keyframe.rotation !== undefined) parts.push(`rotation ${round2(keyframe.rotation)}°`);
  if (keyframe.scale !== undefined) parts.push(`scale ${round2(keyframe.scale)}`);
  return parts.join(', ') || 'no values';
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Whether any element of the list (at any depth) animates, has keyframes or plays a video. */
export function hasMotion(elements: readonly Element[]): boolean {
  return elements.some(
    (el) =>
      (el.animations?.length ?? 0) > 0 ||
      (el.keyframes?.length ?? 0) > 0 ||
      el.type === 'video' ||
      (el.type === 'group' && hasMotion(el.elements)),
  );
}
