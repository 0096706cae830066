/**
 * The page on screen: the engine draws it on a canvas (redrawn in the next animation frame after
 * any change), the overlay shows selection and guides, and pointer input goes to the pointer
 * controller in page units. Pans by scrolling, space-drag or middle-drag; Ctrl/Cmd+wheel zooms
 * about the pointer; double-click on a text edits it in place.
 */
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useEditorState, useServices } from './context.ts';
import { activePage } from './doc-ops.ts';
import { hitTest, type Point } from './geometry.ts';
import { PointerController, type PointerTarget } from './interactions.ts';
import { Overlay } from './Overlay.tsx';
import type { PageRenderer } from './renderer.ts';
import { ShownPageCache } from './shown-page.ts';
import { TextEditor } from './TextEditor.tsx';
import type { Handle } from './transform.ts';
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
  const { store } = useServices();
  const state = useEditorState();
  const viewport = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const controller = useMemo(() => new PointerController(store), [store]);
  const shownCache = useMemo(() => new ShownPageCache(), []);
  const pan = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  const zoomAnchor = useRef<{ page: Point; client: Point } | null>(null);
  const [spaceHeld, setSpaceHeld] = useState(false);
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
      const mods = s.previewVariables ? s.samples : EMPTY;
      const shown = shownCache.get(s.draft ?? s.doc, mods, s.editingTextId);
      const problem =
        renderer.draw(target, shown.page, s.zoom, window.devicePixelRatio || 1) ?? shown.problem;
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
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [store, renderer, shownCache, onProblem]);

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

  const input = (event: PointerEvent | MouseEvent) => ({
    point: toPage({ x: event.clientX, y: event.clientY }),
    shift: event.shiftKey,
    tolerance: 4 / zoom,
  });

  const onPointerDown = (event: JSX.TargetedPointerEvent<HTMLDivElement>) => {
    if (state.editingTextId) return;
    const el = viewport.current;
    if (!el) return;
    if (event.button === 1 || (event.button === 0 && spaceHeld)) {
      pan.current = { x: event.clientX, y: event.clientY, left: el.scrollLeft, top: el.scrollTop };
    } else if (event.button === 0) {
      controller.down(targetOf(event), input(event));
    } else return;
    // No preventDefault: the mousedown that follows focuses the canvas (and blurs a field).
    el.setPointerCapture(event.pointerId);
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
    const hit = hitTest(activePage(state.doc).elements, input(event).point, 4 / zoom);
    if (hit?.type === 'text' && !hit.locked) store.set({ editingTextId: hit.id, selection: [hit.id] });
  };

  const editing = state.editingTextId
    ? activePage(state.doc).elements.find((el) => el.id === state.editingTextId)
    : undefined;
  const selected = page.elements.filter((el) => state.selection.includes(el.id));
  const cursor = spaceHeld || pan.current ? 'grab' : 'default';

  return (
    <div
      ref={viewport}
      class="pe-viewport"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the design surface takes keyboard commands, so it must be focusable
      tabIndex={0}
      role="application"
      aria-roledescription="design canvas"
      aria-label="Page editor: arrow keys move the selection, Enter edits the selected text"
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
          setSpaceHeld(true);
        }
        if (event.key === 'Escape' && controller.active) {
          event.stopPropagation();
          controller.cancel();
        }
      }}
      onKeyUp={(event) => {
        if (event.key === ' ') setSpaceHeld(false);
      }}
      onBlur={() => setSpaceHeld(false)}
    >
      <div class="pe-stage">
        <div class="pe-page" style={{ width: `${page.width * zoom}px`, height: `${page.height * zoom}px` }}>
          <canvas
            ref={canvas}
            role="img"
            aria-label={`Page ${page.name ?? page.id}, ${page.width} by ${page.height}, ${page.elements.length} elements`}
            style={{ width: `${page.width * zoom}px`, height: `${page.height * zoom}px` }}
          />
          <Overlay state={state} page={page} selected={selected} />
          {editing?.type === 'text' && <TextEditor key={editing.id} el={editing} zoom={zoom} />}
        </div>
      </div>
    </div>
  );
}
