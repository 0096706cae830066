/**
 * Motion (docs/design-document.md, "Motion"): the fields that make a page a scene of a video.
 * Pages get `durationMs` and a `transition` into the next scene; elements get `animations`
 * (presets in and out) and `keyframes`; a `video` element plays an uploaded clip; the document may
 * carry an `audio` soundtrack. Every field is optional without a default, so a still document
 * parses to the same object it did before motion existed, and still formats ignore them.
 *
 * What a field means over time is computed by timeline.ts, the one pure function every backend
 * and the studio draw from.
 */
import { z } from 'zod';
import { designBounds as B } from './bounds.ts';

const finite = (min: number, max: number) => z.number().min(min).max(max);

export const motionBounds = {
  /** One page (scene) of a video: five minutes; a render's whole video has its own, lower limit. */
  pageDurationMs: 300_000,
  /** When an animation or keyframe may happen on a page, counted from the scene's start. */
  timeMs: 300_000,
  animationsPerElement: 8,
  keyframesPerElement: 100,
  /** Keyframes of every element of a document together, counted on the raw JSON before parsing. */
  documentKeyframes: 2_000,
  /** Keyframe scale: 0 (a point) to 100 times the element's size. */
  scale: 100,
  volume: 4,
} as const;

export const easings = ['linear', 'ease', 'ease-in', 'ease-out', 'ease-in-out'] as const;
export const easingSchema = z.enum(easings);

export const animationPresets = [
  'fade',
  'slide-left',
  'slide-right',
  'slide-up',
  'slide-down',
  'zoom',
  'pop',
  'typewriter',
] as const;

/** Default length of a preset animation when `durationMs` is absent. */
export const DEFAULT_ANIMATION_MS = 600;
/** Default length of a page as a scene of a video when `durationMs` is absent (the contract's 5 s). */
export const DEFAULT_PAGE_DURATION_MS = 5_000;

export const animationSchema = z.strictObject({
  preset: z.enum(animationPresets),
  /** `in` plays from the scene's start (after `delayMs`); `out` ends at the scene's end unless `delayMs` places it. */
  phase: z.enum(['in', 'out']),
  /** Start, in ms from the scene's start. For `out` the default is the scene's length less `durationMs`. */
  delayMs: finite(0, motionBounds.timeMs).optional(),
  durationMs: finite(1, motionBounds.timeMs).optional(),
  easing: easingSchema.optional(),
});

/** Absolute values at `timeMs`; a property a keyframe leaves out is eased between the keyframes that give it. */
export const keyframeSchema = z.strictObject({
  timeMs: finite(0, motionBounds.timeMs),
  x: finite(-B.coordinate, B.coordinate).optional(),
  y: finite(-B.coordinate, B.coordinate).optional(),
  opacity: finite(0, 1).optional(),
  rotation: finite(-B.rotation, B.rotation).optional(),
  scale: finite(0, motionBounds.scale).optional(),
  /** The easing from the previous keyframe into this one (default `ease-in-out`). */
  easing: easingSchema.optional(),
});

/** The element fields motion adds to every element type. */
export const motionShape = {
  animations: z.array(animationSchema).max(motionBounds.animationsPerElement).optional(),
  keyframes: z.array(keyframeSchema).max(motionBounds.keyframesPerElement).optional(),
};

export const transitionSchema = z.strictObject({
  type: z.enum(['fade', 'slide']),
  /** The scenes overlap this long: the next one starts while this one ends. */
  durationMs: finite(1, motionBounds.pageDurationMs),
});

/** The page fields motion adds. */
export const pageMotionShape = {
  /** Length as a scene of a video (default 5,000 ms); still formats ignore it. */
  durationMs: finite(1, motionBounds.pageDurationMs).optional(),
  /** Into the next page, when the video has `allPages`. */
  transition: transitionSchema.optional(),
};

const VIDEO_ASSET = /^asset:[A-Za-z0-9_-]{1,64}$/;
export const mediaAssetSrcSchema = z
  .string()
  .regex(VIDEO_ASSET, { error: 'must be asset:<id> of an uploaded video or audio asset' });

export const audioTrackSchema = z.strictObject({
  src: mediaAssetSrcSchema,
  /** 1 keeps the asset's level; 0 silences it. */
  volume: finite(0, motionBounds.volume).optional(),
});

export type Easing = z.output<typeof easingSchema>;
export type AnimationPreset = (typeof animationPresets)[number];
export type Animation = z.output<typeof animationSchema>;
export type Keyframe = z.output<typeof keyframeSchema>;
export type Transition = z.output<typeof transitionSchema>;
export type AudioTrack = z.output<typeof audioTrackSchema>;
