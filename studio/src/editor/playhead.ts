/**
 * The playhead of the motion preview: where in the active page's scene the stage is drawn, whether
 * it plays, and whether the stage previews that time at all. It lives apart from the editor store
 * on purpose: it changes every frame while playing, and only the stage and the timeline's clock
 * follow it, so the panels do not re-render sixty times a second. No DOM beyond the clock, which
 * tests replace.
 *
 * Previewing is a mode, not a time: editing always works on the page's own (un-animated) fields,
 * and the stage shows them whenever it is not previewing. Playing, scrubbing and stepping preview;
 * `edit()` (a click on the page, Escape, selecting something) goes back to editing and keeps the time.
 */
import { frameTimeMs } from '../../../src/engine/browser.ts';

/** Frame steps follow the video's default rate, so a stepped time is a frame of a default render. */
export const PREVIEW_FPS = 30;

export interface PlayheadState {
  /** Time into the active page's scene, in ms. */
  timeMs: number;
  playing: boolean;
  /** The stage draws the page at `timeMs`; false: the page's own fields, for editing. */
  previewing: boolean;
  /** Previews show the transitions between pages, as a video of all pages does. */
  transitions: boolean;
}

export interface Clock {
  now(): number;
  frame(callback: () => void): number;
  cancel(handle: number): void;
}

const browserClock: Clock = {
  now: () => performance.now(),
  frame: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

type Listener = (state: PlayheadState) => void;

export class Playhead {
  private state: PlayheadState = { timeMs: 0, playing: false, previewing: false, transitions: true };
  private readonly listeners = new Set<Listener>();
  private ticking = 0;
  private started: { at: number; from: number } | null = null;

  /** `lengthMs`: the active page's length, read on every frame (it may be edited while playing). */
  constructor(
    private readonly lengthMs: () => number,
    private readonly clock: Clock = browserClock,
  ) {}

  get(): PlayheadState {
    return this.state;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<PlayheadState>): void {
    const next = { ...this.state, ...patch };
    const same = (Object.keys(patch) as (keyof PlayheadState)[]).every((k) => next[k] === this.state[k]);
    if (same) return;
    this.state = next;
    for (const listener of this.listeners) listener(next);
  }

  private clamp(timeMs: number): number {
    return Math.min(Math.max(0, timeMs), this.lengthMs());
  }

  /** Plays from the playhead (from the start when it stands at the end). */
  play(): void {
    if (this.state.playing) return;
    const length = this.lengthMs();
    const from = this.state.timeMs >= length ? 0 : this.clamp(this.state.timeMs);
    this.started = { at: this.clock.now(), from };
    this.set({ playing: true, previewing: true, timeMs: from });
    this.ticking = this.clock.frame(this.tick);
  }

  private readonly tick = (): void => {
    const started = this.started;
    if (!this.state.playing || !started) return;
    const length = this.lengthMs();
    const timeMs = started.from + (this.clock.now() - started.at);
    if (timeMs >= length) {
      // The last frame stays on the stage: the preview ends where the scene ends.
      this.stopTicking();
      this.set({ playing: false, timeMs: length });
      return;
    }
    this.set({ timeMs });
    this.ticking = this.clock.frame(this.tick);
  };

  private stopTicking(): void {
    if (this.ticking) this.clock.cancel(this.ticking);
    this.ticking = 0;
    this.started = null;
  }

  /** Stops at the current time; the stage keeps previewing it. */
  pause(): void {
    this.stopTicking();
    this.set({ playing: false });
  }

  toggle(): void {
    if (this.state.playing) this.pause();
    else this.play();
  }

  /** Shows the page at `timeMs` (scrubbing): pauses, previews. */
  seek(timeMs: number): void {
    this.stopTicking();
    this.set({ playing: false, previewing: true, timeMs: this.clamp(timeMs) });
  }

  /**
   * Moves by whole frames of a PREVIEW_FPS video; the time lands exactly on a frame (from between
   * two frames, one step reaches the neighbouring one in that direction).
   */
  step(frames: number): void {
    const at = (this.state.timeMs * PREVIEW_FPS) / 1000;
    const from = frames >= 0 ? Math.floor(at + 1e-6) : Math.ceil(at - 1e-6);
    this.seek(frameTimeMs(Math.max(0, from + frames), PREVIEW_FPS));
  }

  /** Back to editing the page's own fields; the time stays where it was. */
  edit(): void {
    this.stopTicking();
    this.set({ playing: false, previewing: false });
  }

  /** Another page came up: its scene starts at 0, in editing. */
  reset(): void {
    this.stopTicking();
    this.set({ playing: false, previewing: false, timeMs: 0 });
  }

  setTransitions(transitions: boolean): void {
    this.set({ transitions });
  }

  /** The page got shorter than the playhead: keep the playhead on it. */
  fit(): void {
    if (this.state.timeMs > this.lengthMs()) this.set({ timeMs: this.lengthMs() });
  }

  dispose(): void {
    this.stopTicking();
    this.listeners.clear();
  }
}

/** A time for people: seconds with two decimals ("1.20 s"). */
export function formatTime(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(2)} s`;
}

/** What the focused element is, for deciding what Space does. */
export interface FocusTarget {
  tagName: string;
  /** An input's type. */
  type?: string;
  role?: string | null;
  isContentEditable?: boolean;
}

const TEXT_LIKE_INPUTS = new Set([
  'text',
  'number',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'color',
]);
const PRESSABLE_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image']);
const PRESSABLE_ROLES = new Set([
  'button',
  'checkbox',
  'switch',
  'tab',
  'menuitem',
  'option',
  'link',
  'radio',
]);

/**
 * Whether Space should play or pause rather than do what the focused control does with it: never
 * in a text field (Space types), nor on a button, checkbox, link or tab (Space presses it). On the
 * scrubber, a timeline bar or the panels' background it toggles playback.
 */
export function spaceTogglesPlay(target: FocusTarget | null): boolean {
  if (!target) return true;
  if (target.isContentEditable) return false;
  const tag = target.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT' || tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY')
    return false;
  if (tag === 'INPUT') {
    const type = (target.type ?? 'text').toLowerCase();
    if (TEXT_LIKE_INPUTS.has(type) || PRESSABLE_INPUTS.has(type)) return false;
  }
  return !(target.role && PRESSABLE_ROLES.has(target.role));
}
