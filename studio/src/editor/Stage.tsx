/**
 * The page on screen: the engine draws it on a canvas (redrawn in the next animation frame after
 * any change), the overlay shows selection and guides, and pointer input goes to the pointer
 * controller in page units. Pans by scrolling, space-drag or middle-drag; Ctrl/Cmd+wheel zooms
 * about the pointer; double-click on a text edits it in place, on a group enters it (its children
 * are then picked and dragged in the group's own coordinates, through its transform).
 *
 * Motion: while the playhead previews, the canvas draws the page at the playhead's time (the
 * server's frame at that time) and the selection overlay steps aside; a press on the page goes
 * back to editing the page's own fields. Space pressed and released without dragging plays or
 * pauses; held while dragging, it pans as before.
 */
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useEditorState, usePlayhead, useServices } from './context.ts';
import { activePage } from './doc-ops.ts';
import { hitTest, type Point } from './geometry.ts';
import { PointerController, type PointerTarget, scopeOf } from './interactions.ts';
import { Overlay } from './Overlay.tsx';
import { formatTime } from './playhead.ts';
import { PreviewMemo } from './preview.ts';
import type { PageRenderer } from './renderer.ts';
import { ShownPageCache } from './shown-page.ts';
import { TextEditor } from './TextEditor.tsx';
import type { Handle } from './transform.ts';
import {
  apply,
  groupMatrix,
  IDENTITY,
  invert,
  locate,
  type Matrix,
  multiply,
  scopeMatrix,
} from './tree-ops.ts';
import { clampZoom } from './zoom.ts';

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});

function targetOf(event: PointerEvent): PointerTarget {
  const el = event.target instanceof Element ? event.target : null;
  const handle = el?.getAttribute('data-handle');
  if (handle) return { kind: 'handle', handle: handle as Handle };
  if (el?.getAttribute('data-rotate')) return { kind: 'rotate' };
  const end = el?.getAttribute('data-end');
  if (end === 'start' || end === 'end') return { kind: 'line-end', end };
  return { kind: 'page' };
}

export function Stage({
  renderer,
  onProblem,
}: {
  renderer: PageRenderer;
  onProblem(problem: string | null): void;
}) {
  const { store, actions, playhead } = useServices();
  const state = useEditorState();
  const previewing = usePlayhead((s) => s.previewing);
  const playing = usePlayhead((s) => s.playing);
  // The time shows in the banner only when paused: while playing it would change every frame.
  const pausedAt = usePlayhead((s) => (s.playing ? null : s.timeMs));
  const viewport = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const controller = useMemo(() => new PointerController(store), [store]);
  const shownCache = useMemo(() => new ShownPageCache(), []);
  const previewMemo = useMemo(() => new PreviewMemo(), []);
  const pan = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  const zoomAnchor = useRef<{ page: Point; client: Point } | null>(null);
  const [spaceHeld, setSpaceHeld] = useState(false);
  /** Space went down on the stage and no drag has used it for panning yet. */
  const spaceTap = useRef(false);
  const page = activePage(state.draft ?? state.doc);
  const zoom = state.zoom;

  // Draw in the next frame after any change; several changes in one frame draw once.
  useEffect(() => {
    let frame = 0;
    let lastProblem: string | null = null;
    const draw = () => {
      frame = 0;
      const target = canvas.current;
      if (!target) return;
      const s = store.get();
      const p = playhead.get();
      const mods = s.previewVariables ? s.samples : EMPTY;
      const shown = shownCache.get(s.draft ?? s.doc, mods, s.editingTextId);
      const dpr = window.devicePixelRatio || 1;
      const drawn = p.previewing
        ? renderer.drawLayers(
            target,
            shown.page,
            previewMemo.get(shown.pages, shown.activeIndex, p.timeMs, p.transitions, renderer.mediaRevision, {
              mediaDurationMs: renderer.mediaDurationMs,
            }),
            s.zoom,
            dpr,
          )
        : renderer.draw(target, shown.page, s.zoom, dpr);
      const problem = drawn ?? shown.problem;
      target.setAttribute('aria-busy', renderer.settled ? 'false' : 'true');
      if (problem !== lastProblem) {
        lastProblem = problem;
        onProblem(problem);
      }
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };
    schedule();
    const unsubscribe = store.subscribe(schedule);
    const unfollow = playhead.subscribe(schedule);
    return () => {
      unsubscribe();
      unfollow();
      cancelAnimationFrame(frame);
    };
  }, [store, playhead, renderer, shownCache, previewMemo, onProblem]);

  // Ctrl/Cmd+wheel zooms; the listener must be active (not passive) to stop the browser's zoom.
  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const s = store.get();
      const client = { x: event.clientX, y: event.clientY };
      zoomAnchor.current = { page: toPage(client, s.zoom), client };
      store.set({ zoom: clampZoom(s.zoom * Math.exp(-event.deltaY * 0.0015)) });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [store]);

  // After a wheel zoom, scroll so the page point under the pointer stays under it.
  useLayoutEffect(() => {
    const anchor = zoomAnchor.current;
    const el = viewport.current;
    const rect = canvas.current?.getBoundingClientRect();
    zoomAnchor.current = null;
    if (!anchor || !el || !rect) return;
    el.scrollLeft += rect.left + anchor.page.x * zoom - anchor.client.x;
    el.scrollTop += rect.top + anchor.page.y * zoom - anchor.client.y;
  }, [zoom]);

  function toPage(client: Point, z = zoom): Point {
    const rect = canvas.current?.getBoundingClientRect();
    return { x: (client.x - (rect?.left ?? 0)) / z, y: (client.y - (rect?.top ?? 0)) / z };
  }

  // Pointer points go to the controller in the entered group's coordinates.
  const scope = scopeMatrix(page.elements, state.scopeId);
  const input = (event: PointerEvent | MouseEvent) => ({
    point: apply(invert(scope), toPage({ x: event.clientX, y: event.clientY })),
    shift: event.shiftKey,
    tolerance: 4 / zoom,
  });

  const onPointerDown = (event: JSX.TargetedPointerEvent<HTMLDivElement>) => {
    if (state.editingTextId) return;
    const el = viewport.current;
    if (!el) return;
    if (event.button === 1 || (event.button === 0 && spaceHeld)) {
      spaceTap.current = false;
      pan.current = { x: event.clientX, y: event.clientY, left: el.scrollLeft, top: el.scrollTop };
    } else if (event.button === 0) {
      // A press on the page edits: the page's own fields come back under the pointer.
      if (playhead.get().previewing) playhead.edit();
      const target = targetOf(event);
      // A press outside the entered group leaves it, and picks on the page as usual.
      if (target.kind === 'page' && state.scopeId && !insideScope(event)) {
        store.set({ scopeId: null });
        controller.down(target, { ...input(event), point: toPage({ x: event.clientX, y: event.clientY }) });
      } else controller.down(target, input(event));
    } else return;
    // No preventDefault: the mousedown that follows focuses the canvas (and blurs a field).
    el.setPointerCapture(event.pointerId);
  };

  /** Whether the pointer is on the entered group's box, as drawn. */
  const insideScope = (event: PointerEvent): boolean => {
    const found = state.scopeId ? locate(page.elements, state.scopeId) : null;
    if (found?.element.type !== 'group') return false;
    const local = input(event).point;
    const g = found.element;
    return local.x >= 0 && local.y >= 0 && local.x <= g.width && local.y <= g.height;
  };

  const onPointerMove = (event: JSX.TargetedPointerEvent<HTMLDivElement>) => {
    const p = pan.current;
    const el = viewport.current;
    if (p && el) {
      el.scrollLeft = p.left - (event.clientX - p.x);
      el.scrollTop = p.top - (event.clientY - p.y);
    } else if (controller.active) controller.move(input(event));
  };

  const onPointerUp = () => {
    pan.current = null;
    controller.up();
  };

  const onDoubleClick = (event: JSX.TargetedMouseEvent<HTMLDivElement>) => {
    if (state.readOnly) return;
    const point = input(event).point;
    const hit = hitTest(scopeOf(state.doc, state.scopeId).elements, point, 4 / zoom);
    if (hit?.type === 'text' && !hit.locked) store.set({ editingTextId: hit.id, selection: [hit.id] });
    if (hit?.type === 'group') {
      // Enter the group, selecting the child under the pointer (in the group's coordinates).
      const local = apply(invert(groupMatrix(hit)), point);
      const child = hitTest(hit.elements, local, 4 / zoom);
      actions.enterGroup(hit.id, child ? [child.id] : []);
    }
  };

  const editingAt = state.editingTextId ? locate(activePage(state.doc).elements, state.editingTextId) : null;
  const editing = editingAt?.element;
  const editingMatrix = (editingAt?.ancestors ?? []).reduce<Matrix>(
    (m, g) => multiply(m, groupMatrix(g)),
    IDENTITY,
  );
  const selected = state.selection
    .map((id) => locate(page.elements, id)?.element)
    .filter((el) => el !== undefined);
  const cursor = spaceHeld || pan.current ? 'grab' : 'default';
  const pageLabel = `Page ${page.name ?? page.id}, ${page.width} by ${page.height}, ${page.elements.length} elements`;

  return (
    <div class="pe-stage-area">
      {previewing && (
        <div
          class="pe-preview-banner"
          title="The page as it moves, as a render at this time draws it. Editing changes the page's own fields."
        >
          <span>{playing ? 'Playing the preview' : `Preview at ${formatTime(pausedAt ?? 0)}`}</span>
          <button type="button" onClick={() => playhead.edit()}>
            Back to editing
          </button>
        </div>
      )}
      <div
        ref={viewport}
        class={`pe-viewport${previewing ? ' is-previewing' : ''}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the design surface takes keyboard commands, so it must be focusable
        tabIndex={0}
        role="application"
        aria-roledescription="design canvas"
        aria-label={
          previewing
            ? 'Page preview: Space plays or pauses, arrow keys step a frame, Escape or a click goes back to editing'
            : 'Page editor: arrow keys move the selection, Enter edits the selected text, Space plays the animation'
        }
        style={{ cursor }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          pan.current = null;
          controller.cancel();
        }}
        onDblClick={onDoubleClick}
        onKeyDown={(event) => {
          if (event.key === ' ' && event.target === viewport.current) {
            event.preventDefault();
            if (!event.repeat) spaceTap.current = true;
            setSpaceHeld(true);
          }
          if (event.key === 'Escape' && controller.active) {
            event.stopPropagation();
            controller.cancel();
          }
        }}
        onKeyUp={(event) => {
          if (event.key !== ' ') return;
          setSpaceHeld(false);
          // A tap of Space (no pan in between) plays or pauses, as in video tools.
          if (spaceTap.current && event.target === viewport.current) playhead.toggle();
          spaceTap.current = false;
        }}
        onBlur={() => {
          setSpaceHeld(false);
          spaceTap.current = false;
        }}
      >
        <div class="pe-stage">
          <div class="pe-page" style={{ width: `${page.width * zoom}px`, height: `${page.height * zoom}px` }}>
            <canvas
              ref={canvas}
              role="img"
              aria-label={previewing ? `${pageLabel}, previewing its animation` : pageLabel}
              style={{ width: `${page.width * zoom}px`, height: `${page.height * zoom}px` }}
            />
            {!previewing && <Overlay state={state} page={page} selected={selected} matrix={scope} />}
            {!previewing && editing?.type === 'text' && (
              <TextEditor key={editing.id} el={editing} zoom={zoom} matrix={editingMatrix} />
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
