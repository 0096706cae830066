/**
 * The motion part of the properties panel. For an element: its animations (preset, phase, easing,
 * delay and duration in seconds, remove; add one with a preset and phase) and its keyframes (add
 * one at the playhead holding the element's own x, y, opacity and rotation; retime, show or delete
 * one). For the page: its length as a scene and its transition into the next page. Every field is
 * labelled with the animation's or keyframe's number, so each has its own accessible name.
 */
import { useState } from 'preact/hooks';
import {
  type Animation,
  type AnimationPreset,
  animationPresets,
  DEFAULT_ANIMATION_MS,
  type Easing,
  type Element,
  easings,
  type Page,
  pageDurationMs,
} from '../../../src/engine/browser.ts';
import { usePlayhead, useServices } from './context.ts';
import { NumberField, Section, SelectField } from './fields.tsx';
import { Icon } from './icons.tsx';
import {
  animationName,
  barWindow,
  captureKeyframe,
  describeKeyframe,
  PRESET_LABELS,
  replaceAnimation,
  retimeKeyframe,
  withAnimation,
  withoutAnimation,
  withoutKeyframe,
} from './motion-ops.ts';
import { formatTime } from './playhead.ts';

type Patch = (patch: Record<string, unknown>) => boolean;

const PHASES = ['in', 'out'] as const;
const PHASE_LABELS = { in: 'In (enters)', out: 'Out (leaves)' } as const;
const EASINGS = ['default', ...easings] as const;
const EASING_LABELS: Partial<Record<(typeof EASINGS)[number], string>> = { default: "The preset's own" };

const seconds = (ms: number) => ms / 1000;
const ms = (s: number) => Math.round(s * 1000);

export function MotionFields({
  el,
  page,
  disabled,
  patch,
}: {
  el: Element;
  page: Page;
  disabled: boolean;
  patch: Patch;
}) {
  return (
    <>
      <AnimationFields el={el} pageMs={pageDurationMs(page)} disabled={disabled} patch={patch} />
      <KeyframeFields el={el} disabled={disabled} patch={patch} />
    </>
  );
}

function AnimationFields({
  el,
  pageMs,
  disabled,
  patch,
}: {
  el: Element;
  pageMs: number;
  disabled: boolean;
  patch: Patch;
}) {
  const { store } = useServices();
  const [preset, setPreset] = useState<AnimationPreset>('fade');
  const [phase, setPhase] = useState<Animation['phase']>('in');
  const animations = el.animations ?? [];
  const d = disabled || el.locked;
  const set = (index: number, animation: Animation) =>
    patch({ animations: replaceAnimation(el, index, animation) });
  const add = () => {
    const next = withAnimation(el, { preset, phase, durationMs: DEFAULT_ANIMATION_MS });
    if (!next) store.set({ notice: 'An element has at most 8 animations.' });
    else patch({ animations: next });
  };
  return (
    <Section title="Animations">
      {animations.length === 0 && (
        <p class="pe-hint">
          None yet. An "in" animation plays from the page's start, an "out" one ends with it.
        </p>
      )}
      {animations.map((animation, index) => {
        const n = index + 1;
        const { startMs, durationMs } = barWindow(animation, pageMs);
        return (
          <fieldset key={index} class="pe-motion-item">
            <legend>
              Animation {n}: {animationName(animation)}
            </legend>
            <div class="pe-grid2">
              <SelectField
                label={`Animation ${n} preset`}
                value={animation.preset}
                options={animationPresets}
                labels={PRESET_LABELS}
                disabled={d}
                onCommit={(p) => set(index, { ...animation, preset: p })}
              />
              <SelectField
                label={`Animation ${n} phase`}
                value={animation.phase}
                options={PHASES}
                labels={PHASE_LABELS}
                disabled={d}
                onCommit={(p) => set(index, { ...animation, phase: p })}
              />
              <NumberField
                label={`Animation ${n} delay (s)`}
                value={seconds(startMs)}
                min={0}
                step={0.1}
                disabled={d}
                onCommit={(s) => set(index, { ...animation, delayMs: ms(s) })}
              />
              <NumberField
                label={`Animation ${n} duration (s)`}
                value={seconds(durationMs)}
                min={0.01}
                step={0.1}
                disabled={d}
                onCommit={(s) => set(index, { ...animation, durationMs: ms(s) })}
              />
            </div>
            <SelectField
              label={`Animation ${n} easing`}
              value={animation.easing ?? 'default'}
              options={EASINGS}
              labels={EASING_LABELS}
              disabled={d}
              onCommit={(e) => {
                const { easing: _, ...rest } = animation;
                return set(index, e === 'default' ? rest : { ...rest, easing: e as Easing });
              }}
            />
            <button
              type="button"
              disabled={d}
              onClick={() => patch({ animations: withoutAnimation(el, index) })}
            >
              <Icon name="trash" /> Remove animation {n}
            </button>
          </fieldset>
        );
      })}
      <div class="pe-grid2">
        <SelectField
          label="New animation preset"
          value={preset}
          options={animationPresets}
          labels={PRESET_LABELS}
          disabled={d}
          onCommit={(p) => {
            setPreset(p);
            return true;
          }}
        />
        <SelectField
          label="New animation phase"
          value={phase}
          options={PHASES}
          labels={PHASE_LABELS}
          disabled={d}
          onCommit={(p) => {
            setPhase(p);
            return true;
          }}
        />
      </div>
      <button type="button" class="pe-wide" disabled={d} onClick={add}>
        <Icon name="plus" /> Add animation
      </button>
    </Section>
  );
}

function KeyframeFields({ el, disabled, patch }: { el: Element; disabled: boolean; patch: Patch }) {
  const { store, playhead } = useServices();
  // The button names the time when paused; while playing it would re-render every frame.
  const pausedAt = usePlayhead((s) => (s.playing ? null : s.timeMs));
  const keyframes = el.keyframes ?? [];
  const d = disabled || el.locked;
  const capture = () => {
    const timeMs = playhead.get().timeMs;
    const next = captureKeyframe(el, timeMs);
    if (!next) store.set({ notice: 'An element has at most 100 keyframes.' });
    else if (patch({ keyframes: next })) store.set({ notice: `Keyframe added at ${formatTime(timeMs)}.` });
  };
  return (
    <Section title="Keyframes">
      <p class="pe-hint">
        A keyframe holds the element's position, opacity and rotation at a time; between keyframes they ease
        from one to the next. Place the element, move the playhead, then add a keyframe.
      </p>
      <button type="button" class="pe-wide" disabled={d} onClick={capture}>
        <Icon name="keyframe" /> Add keyframe at {pausedAt === null ? 'the playhead' : formatTime(pausedAt)}
      </button>
      {keyframes.length > 0 && (
        <ol class="pe-keyframes">
          {keyframes.map((keyframe, index) => {
            const n = index + 1;
            return (
              <li key={index} class="pe-motion-item">
                <NumberField
                  label={`Keyframe ${n} time (s)`}
                  value={seconds(keyframe.timeMs)}
                  min={0}
                  step={0.1}
                  disabled={d}
                  onCommit={(s) => patch({ keyframes: retimeKeyframe(el, index, ms(s)) })}
                />
                <span class="pe-hint">{describeKeyframe(keyframe)}</span>
                <div class="pe-row">
                  <button
                    type="button"
                    aria-label={`Show keyframe ${n} at ${formatTime(keyframe.timeMs)}`}
                    onClick={() => playhead.seek(keyframe.timeMs)}
                  >
                    Show
                  </button>
                  <button
                    type="button"
                    disabled={d}
                    aria-label={`Delete keyframe ${n} at ${formatTime(keyframe.timeMs)}`}
                    onClick={() => patch({ keyframes: withoutKeyframe(el, index) })}
                  >
                    <Icon name="trash" /> Delete
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </Section>
  );
}

const TRANSITIONS = ['none', 'fade', 'slide'] as const;
const DEFAULT_TRANSITION_MS = 500;

/** The page's transition into the next page (its duration is in the timeline's transport). */
export function PageMotionFields({ page, disabled }: { page: Page; disabled: boolean }) {
  const { actions } = useServices();
  const transition = page.transition;
  return (
    <Section title="Motion">
      <SelectField
        label="Transition to the next page"
        value={transition?.type ?? 'none'}
        options={TRANSITIONS}
        labels={{ none: 'None', fade: 'Fade', slide: 'Slide' }}
        disabled={disabled}
        onCommit={(type) =>
          actions.updatePage({
            transition:
              type === 'none'
                ? undefined
                : { type, durationMs: transition?.durationMs ?? DEFAULT_TRANSITION_MS },
          })
        }
      />
      {transition && (
        <NumberField
          label="Transition duration (s)"
          value={seconds(transition.durationMs)}
          min={0.01}
          step={0.1}
          disabled={disabled}
          onCommit={(s) => actions.updatePage({ transition: { ...transition, durationMs: ms(s) } })}
        />
      )}
      <p class="pe-hint">
        A video plays this page for its duration (set under the page, beside the timeline); in a video of all
        pages the transition overlaps its end with the next page's start. Still images show the page once its
        animations are in.
      </p>
    </Section>
  );
}
