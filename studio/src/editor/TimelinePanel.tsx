/**
 * The motion panel under the page: a transport (play/pause, frame steps, the scrubber with the
 * time, the page's duration, transitions on or off) and the timeline, one row per element (a
 * group's children under it) with its animations as bars on the page's time axis and its
 * keyframes as diamonds.
 *
 * Pointer: drag a bar to move it, its right end to change its duration, the ruler to scrub. Keyboard:
 * a focused bar moves by 100 ms with the arrow keys and stretches with Shift+arrows, Home/End take it
 * to the page's start/end, Delete removes it; a focused diamond shows its time with Enter and is
 * deleted with Delete; the scrubber steps one frame with the arrows, a second with Shift or Page
 * keys. A bar or diamond change is one committed edit (one undo step).
 */
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import {
  type Animation,
  type Element,
  type Page,
  pageDurationMs,
  stillTimeMs,
} from '../../../src/engine/browser.ts';
import { useEditorState, usePlayhead, useServices } from './context.ts';
import { activePage } from './doc-ops.ts';
import { useDraft } from './fields.tsx';
import { Icon } from './icons.tsx';
import {
  animationName,
  assignLanes,
  BAR_STEP_MS,
  barWindow,
  captureKeyframe,
  hasMotion,
  moveAnimation,
  nextAnimation,
  replaceAnimation,
  resizeAnimation,
  snap,
  timelineRows,
  withAnimation,
  withoutAnimation,
  withoutKeyframe,
} from './motion-ops.ts';
import { displayName } from './PropertiesPanel.tsx';
import { formatTime } from './playhead.ts';

const LANE_PX = 22;
const TICK_STEPS_MS = [100, 250, 500, 1000, 2000, 5000, 10_000, 30_000, 60_000];

const percent = (ms: number, pageMs: number) => `${(Math.min(Math.max(ms, 0), pageMs) / pageMs) * 100}%`;

export function TimelinePanel() {
  const state = useEditorState();
  const page = activePage(state.doc);
  // Open from the start on a page that moves; a still design keeps the room for the page.
  const [open, setOpen] = useState(() => hasMotion(page.elements));
  return (
    <section class="pe-timeline" aria-label="Motion timeline">
      <Transport key={page.id} page={page} open={open} onToggle={() => setOpen(!open)} />
      {open && <Tracks page={page} />}
    </section>
  );
}

function Transport({ page, open, onToggle }: { page: Page; open: boolean; onToggle(): void }) {
  const { playhead, actions } = useServices();
  const state = useEditorState();
  const timeMs = usePlayhead((s) => s.timeMs);
  const playing = usePlayhead((s) => s.playing);
  const transitions = usePlayhead((s) => s.transitions);
  const pageMs = pageDurationMs(page);
  const still = stillTimeMs(page);
  // The transport redraws on every frame while playing: a typed duration must outlive that.
  const duration = useDraft(String(Math.round(pageMs / 10) / 100), (text) => {
    const s = Number.parseFloat(text);
    return Number.isFinite(s) && actions.updatePage({ durationMs: Math.round(s * 1000) });
  });
  const onScrubKey = (event: JSX.TargetedKeyboardEvent<HTMLInputElement>) => {
    const back = event.key === 'ArrowLeft' || event.key === 'ArrowDown';
    const forward = event.key === 'ArrowRight' || event.key === 'ArrowUp';
    const now = playhead.get().timeMs;
    if (back || forward) {
      if (event.shiftKey) playhead.seek(now + (forward ? 1000 : -1000));
      else playhead.step(forward ? 1 : -1);
    } else if (event.key === 'PageUp' || event.key === 'PageDown')
      playhead.seek(now + (event.key === 'PageUp' ? 1000 : -1000));
    else if (event.key === 'Home') playhead.seek(0);
    else if (event.key === 'End') playhead.seek(pageMs);
    else return;
    event.preventDefault();
  };
  return (
    <fieldset class="pe-transport" aria-label="Playback">
      <button
        type="button"
        class="pe-icon pe-play"
        aria-label={playing ? 'Pause' : 'Play'}
        aria-keyshortcuts="Space"
        title={playing ? 'Pause (Space)' : 'Play (Space)'}
        onClick={() => playhead.toggle()}
      >
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      <button
        type="button"
        class="pe-icon"
        aria-label="Previous frame"
        title="Previous frame"
        onClick={() => playhead.step(-1)}
      >
        <Icon name="stepBack" />
      </button>
      <button
        type="button"
        class="pe-icon"
        aria-label="Next frame"
        title="Next frame"
        onClick={() => playhead.step(1)}
      >
        <Icon name="stepForward" />
      </button>
      <input
        type="range"
        class="pe-scrubber"
        aria-label="Playhead time"
        aria-valuetext={`${formatTime(timeMs)} of ${formatTime(pageMs)}`}
        aria-keyshortcuts="ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight Home End Space"
        min={0}
        max={pageMs}
        step={1}
        value={Math.round(timeMs)}
        onInput={(event) => playhead.seek(Number(event.currentTarget.value))}
        onKeyDown={onScrubKey}
      />
      <output class="pe-time" aria-label="Time">
        {formatTime(timeMs)} / {formatTime(pageMs)}
      </output>
      <label class="pe-duration">
        <span>Page duration (s)</span>
        <input type="number" min={0.1} step={0.5} disabled={state.readOnly} {...duration} />
      </label>
      <button
        type="button"
        aria-label={`Show the still image time (${formatTime(still)})`}
        title="PNG, JPEG and PDF renders show the page at this time: once every in-animation has ended"
        onClick={() => playhead.seek(still)}
      >
        Still
      </button>
      {state.doc.pages.length > 1 && (
        <button
          type="button"
          aria-pressed={transitions}
          title="Preview the transitions between pages, as a video of all pages shows them"
          onClick={() => playhead.setTransitions(!transitions)}
        >
          Transitions
        </button>
      )}
      <button type="button" aria-expanded={open} aria-controls="pe-tracks" onClick={onToggle}>
        Timeline
      </button>
    </fieldset>
  );
}

function Tracks({ page }: { page: Page }) {
  const rows = timelineRows(page.elements);
  const pageMs = pageDurationMs(page);
  return (
    <div class="pe-tracks" id="pe-tracks">
      <div class="pe-track-grid">
        <div class="pe-track-row pe-ruler-row">
          <span class="pe-track-label pe-dim">Element</span>
          <Ruler pageMs={pageMs} stillMs={stillTimeMs(page)} />
        </div>
        {rows.length === 0 ? (
          <p class="pe-hint">No elements on this page yet: add one from the toolbar.</p>
        ) : (
          <ul class="pe-track-list" aria-label="Animations and keyframes by element, top layer first">
            {rows.map(({ element, depth }) => (
              <TrackRow key={element.id} el={element} depth={depth} pageMs={pageMs} />
            ))}
          </ul>
        )}
        <PlayheadLine pageMs={pageMs} />
      </div>
    </div>
  );
}

/** Seconds along the axis; pressing or dragging on it scrubs (the scrubber does so for keyboards). */
function Ruler({ pageMs, stillMs }: { pageMs: number; stillMs: number }) {
  const { playhead } = useServices();
  const dragging = useRef(false);
  const step = TICK_STEPS_MS.find((s) => pageMs / s <= 12) ?? 60_000;
  const ticks: number[] = [];
  for (let t = 0; t <= pageMs + 1e-6; t += step) ticks.push(t);
  const seekAt = (event: JSX.TargetedPointerEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    if (rect.width <= 0) return;
    playhead.seek(Math.round(((event.clientX - rect.left) / rect.width) * pageMs));
  };
  return (
    <div
      class="pe-ruler pe-track"
      aria-hidden="true"
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        dragging.current = true;
        event.currentTarget.setPointerCapture(event.pointerId);
        seekAt(event);
      }}
      onPointerMove={(event) => dragging.current && seekAt(event)}
      onPointerUp={() => {
        dragging.current = false;
      }}
      onPointerCancel={() => {
        dragging.current = false;
      }}
    >
      {ticks.map((t) => (
        <span key={t} class="pe-tick" style={{ left: percent(t, pageMs) }}>
          {t % 1000 === 0 ? `${t / 1000}s` : ''}
        </span>
      ))}
      <span
        class="pe-still-mark"
        style={{ left: percent(stillMs, pageMs) }}
        title="Still images show this time"
      />
    </div>
  );
}

function PlayheadLine({ pageMs }: { pageMs: number }) {
  const timeMs = usePlayhead((s) => s.timeMs);
  const previewing = usePlayhead((s) => s.previewing);
  return (
    <div
      class={`pe-playhead${previewing ? ' is-previewing' : ''}`}
      aria-hidden="true"
      style={{ '--t': String(Math.min(1, Math.max(0, timeMs / pageMs))) }}
    />
  );
}

function TrackRow({ el, depth, pageMs }: { el: Element; depth: number; pageMs: number }) {
  const state = useEditorState();
  const { actions, store, playhead } = useServices();
  const name = displayName(el);
  const selected = state.selection.includes(el.id);
  const disabled = state.readOnly || el.locked;
  const animations = el.animations ?? [];
  const keyframes = el.keyframes ?? [];
  const lanes = assignLanes(animations.map((a) => barWindow(a, pageMs)));
  const laneCount = Math.max(1, ...lanes.map((l) => l + 1)) + (keyframes.length > 0 ? 1 : 0);
  const addAnimation = () => {
    const next = withAnimation(el, nextAnimation(el));
    if (!next) return store.set({ notice: 'An element has at most 8 animations.' });
    if (actions.updateElement(el.id, { animations: next })) {
      const added = next.at(-1) as Animation;
      store.set({ notice: `${animationName(added)} added to ${name}.` });
    }
  };
  const addKeyframe = () => {
    const timeMs = playhead.get().timeMs;
    const next = captureKeyframe(el, timeMs);
    if (!next) return store.set({ notice: 'An element has at most 100 keyframes.' });
    if (actions.updateElement(el.id, { keyframes: next }))
      store.set({ notice: `Keyframe added to ${name} at ${formatTime(timeMs)}.` });
  };
  return (
    <li class={`pe-track-row${selected ? ' is-selected' : ''}${el.visible ? '' : ' is-hidden'}`}>
      <div class="pe-track-label" style={{ paddingLeft: `${depth * 12}px` }}>
        <button
          type="button"
          class="pe-layer-name"
          aria-pressed={selected}
          aria-label={`${name}: select for its animations`}
          onClick={(event) => actions.reveal(el.id, event.shiftKey)}
        >
          {name}
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={disabled}
          aria-label={`Add an animation to ${name}`}
          title="Add an animation"
          onClick={addAnimation}
        >
          <Icon name="plus" />
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={disabled}
          aria-label={`Add a keyframe to ${name} at the playhead`}
          title="Add a keyframe at the playhead (the element's position, opacity and rotation)"
          onClick={addKeyframe}
        >
          <Icon name="keyframe" />
        </button>
      </div>
      <fieldset
        class="pe-track"
        aria-label={`Timeline of ${name}`}
        style={{ height: `${laneCount * LANE_PX + 4}px` }}
      >
        {animations.map((animation, index) => (
          <Bar
            key={index}
            el={el}
            name={name}
            index={index}
            animation={animation}
            lane={lanes[index] ?? 0}
            pageMs={pageMs}
            disabled={disabled}
          />
        ))}
        {keyframes.map((keyframe, index) => (
          <button
            key={index}
            type="button"
            class="pe-keyframe"
            style={{ left: percent(keyframe.timeMs, pageMs), top: `${(laneCount - 1) * LANE_PX + 3}px` }}
            aria-label={`Keyframe at ${formatTime(keyframe.timeMs)} of ${name}`}
            aria-keyshortcuts="Delete"
            title="Enter shows this time; Delete removes the keyframe"
            onClick={() => playhead.seek(keyframe.timeMs)}
            onKeyDown={(event) => {
              if (event.key !== 'Delete' && event.key !== 'Backspace') return;
              event.preventDefault();
              if (!disabled) actions.updateElement(el.id, { keyframes: withoutKeyframe(el, index) });
            }}
          >
            <Icon name="keyframe" />
          </button>
        ))}
      </fieldset>
    </li>
  );
}

interface BarDrag {
  mode: 'move' | 'end';
  x: number;
  width: number;
  start: Animation;
}

/** One animation on the axis: a slider whose value is its start, moved and stretched in place. */
function Bar({
  el,
  name,
  index,
  animation,
  lane,
  pageMs,
  disabled,
}: {
  el: Element;
  name: string;
  index: number;
  animation: Animation;
  lane: number;
  pageMs: number;
  disabled: boolean;
}) {
  const { actions, store } = useServices();
  const [draft, setDraft] = useState<Animation | null>(null);
  const drag = useRef<BarDrag | null>(null);
  const shown = draft ?? animation;
  const { startMs, durationMs } = barWindow(shown, pageMs);
  const label = animationName(shown);
  const commit = (next: Animation) => {
    const before = barWindow(animation, pageMs);
    const after = barWindow(next, pageMs);
    if (after.startMs === before.startMs && after.durationMs === before.durationMs) return;
    actions.updateElement(el.id, { animations: replaceAnimation(el, index, next) });
  };

  const onKeyDown = (event: JSX.TargetedKeyboardEvent<HTMLDivElement>) => {
    const key = event.key;
    if (key === 'Delete' || key === 'Backspace') {
      event.preventDefault();
      if (disabled) return;
      if (actions.updateElement(el.id, { animations: withoutAnimation(el, index) }))
        store.set({ notice: `${label} removed from ${name}.` });
      return;
    }
    const sign =
      key === 'ArrowRight' || key === 'ArrowUp' ? 1 : key === 'ArrowLeft' || key === 'ArrowDown' ? -1 : 0;
    let next: Animation | null = null;
    if (sign !== 0)
      next = event.shiftKey
        ? resizeAnimation(animation, sign * BAR_STEP_MS, pageMs)
        : moveAnimation(animation, sign * BAR_STEP_MS, pageMs);
    else if (key === 'Home') next = moveAnimation(animation, -pageMs, pageMs);
    else if (key === 'End') next = moveAnimation(animation, pageMs, pageMs);
    if (!next) return;
    event.preventDefault();
    if (!disabled) commit(next);
  };

  const onPointerDown = (event: JSX.TargetedPointerEvent<HTMLDivElement>) => {
    if (disabled || event.button !== 0) return;
    const track = event.currentTarget.parentElement?.getBoundingClientRect();
    if (!track || track.width <= 0) return;
    const target = event.target instanceof HTMLElement ? event.target : null;
    drag.current = {
      mode: target?.dataset.end ? 'end' : 'move',
      x: event.clientX,
      width: track.width,
      start: animation,
    };
    event.currentTarget.setPointerCapture(event.pointerId);
    if (!store.get().selection.includes(el.id)) actions.reveal(el.id);
  };
  const onPointerMove = (event: JSX.TargetedPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const delta = snap(((event.clientX - d.x) / d.width) * pageMs);
    setDraft(
      d.mode === 'move' ? moveAnimation(d.start, delta, pageMs) : resizeAnimation(d.start, delta, pageMs),
    );
  };
  const onPointerUp = () => {
    drag.current = null;
    if (draft) commit(draft);
    setDraft(null);
  };

  return (
    <div
      role="slider"
      tabIndex={0}
      class={`pe-bar is-${shown.phase}${draft ? ' is-dragging' : ''}`}
      style={{
        left: percent(startMs, pageMs),
        width: `max(6px, ${(Math.min(durationMs, pageMs - Math.min(startMs, pageMs)) / pageMs) * 100}%)`,
        top: `${lane * LANE_PX + 2}px`,
      }}
      aria-label={`${label} of ${name}`}
      aria-valuemin={0}
      aria-valuemax={pageMs}
      aria-valuenow={Math.round(startMs)}
      aria-valuetext={`starts at ${formatTime(startMs)}, lasts ${formatTime(durationMs)}`}
      aria-disabled={disabled || undefined}
      aria-keyshortcuts="ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight Home End Delete"
      title="Drag to move, drag the right end to change the duration; arrows move by 0.1 s, Shift+arrows change the duration, Delete removes"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        drag.current = null;
        setDraft(null);
      }}
    >
      <span class="pe-bar-label">{label}</span>
      <span class="pe-bar-end" data-end="1" aria-hidden="true" />
    </div>
  );
}
