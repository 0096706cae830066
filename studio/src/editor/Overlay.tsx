/**
 * The overlay drawn over the page canvas in screen units: outlines of selected elements (rotated
 * like the element), the eight resize handles and the rotate handle of a single selection (two
 * end handles for a line), a group box with the same handles for a multiple selection, snapping
 * guides and the marquee. Inside an entered group everything is drawn in the group's coordinates
 * under its transform, with the group's box dashed around it.
 * Handles carry data attributes that tell the pointer controller what was grabbed; keyboard users
 * get the same edits through the properties panel and arrow keys, so the overlay is aria-hidden.
 */
import type { Element, Page } from '../../../src/engine/browser.ts';
import { centerOf, cornersOf, lineEnds, type Point, rotatePoint, unionBounds } from './geometry.ts';
import type { EditorState } from './store.ts';
import { HANDLES, type Handle, handleVector } from './transform.ts';
import { locate, type Matrix } from './tree-ops.ts';

const HANDLE = 9;
const ROTATE_OFFSET = 28;

function handlePoints(
  box: { x: number; y: number; width: number; height: number; rotation: number },
  zoom: number,
) {
  const c = centerOf(box);
  return HANDLES.map((handle) => {
    const { hx, hy } = handleVector(handle);
    const p = rotatePoint({ x: c.x + (hx * box.width) / 2, y: c.y + (hy * box.height) / 2 }, c, box.rotation);
    return { handle, x: p.x * zoom, y: p.y * zoom };
  });
}

const CURSORS: Record<Handle, string> = {
  nw: 'nwse-resize',
  se: 'nwse-resize',
  ne: 'nesw-resize',
  sw: 'nesw-resize',
  n: 'ns-resize',
  s: 'ns-resize',
  e: 'ew-resize',
  w: 'ew-resize',
};

const poly = (points: readonly Point[], zoom: number) =>
  points.map((p) => `${p.x * zoom},${p.y * zoom}`).join(' ');

export function Overlay({
  state,
  page,
  selected,
  matrix,
}: {
  state: EditorState;
  page: Page;
  selected: Element[];
  /** From the entered group's coordinates to the page's. */
  matrix: Matrix;
}) {
  const z = state.zoom;
  const scope = state.scopeId ? locate(page.elements, state.scopeId)?.element : undefined;
  const transform = `matrix(${matrix[0]} ${matrix[1]} ${matrix[2]} ${matrix[3]} ${matrix[4] * z} ${matrix[5] * z})`;
  const editable = !state.readOnly && selected.length > 0 && selected.every((el) => !el.locked);
  const [only] = selected;
  const single = selected.length === 1 && only ? only : null;
  return (
    <svg class="pe-overlay" width={page.width * z} height={page.height * z} aria-hidden="true">
      <g transform={transform}>
        {scope && <rect class="pe-scope" x={0} y={0} width={scope.width * z} height={scope.height * z} />}
        <FindingOutlines state={state} page={page} zoom={z} />
        {selected.map((el) =>
          el.type === 'line' ? (
            <polyline key={el.id} points={poly(lineEnds(el), z)} class="pe-outline" />
          ) : (
            <polygon
              key={el.id}
              points={poly(cornersOf(el), z)}
              class={el.locked ? 'pe-outline is-locked' : 'pe-outline'}
            />
          ),
        )}
        {selected.length > 1 && <GroupBox elements={selected} zoom={z} editable={editable} />}
        {single && editable && single.type !== 'line' && <BoxHandles box={single} zoom={z} />}
        {single &&
          editable &&
          single.type === 'line' &&
          lineEnds(single).map((p, i) => (
            <circle
              key={i === 0 ? 'start' : 'end'}
              class="pe-handle"
              data-end={i === 0 ? 'start' : 'end'}
              cx={p.x * z}
              cy={p.y * z}
              r={HANDLE / 2 + 1}
              style={{ cursor: 'crosshair' }}
            />
          ))}
        {state.guides.map((g) =>
          g.axis === 'x' ? (
            <line
              key={`x${g.position}`}
              class="pe-guide"
              x1={g.position * z}
              x2={g.position * z}
              y1={0}
              y2={(scope?.height ?? page.height) * z}
            />
          ) : (
            <line
              key={`y${g.position}`}
              class="pe-guide"
              y1={g.position * z}
              y2={g.position * z}
              x1={0}
              x2={(scope?.width ?? page.width) * z}
            />
          ),
        )}
        {state.marquee && (
          <rect
            class="pe-marquee"
            x={state.marquee.x * z}
            y={state.marquee.y * z}
            width={state.marquee.width * z}
            height={state.marquee.height * z}
          />
        )}
      </g>
    </svg>
  );
}

type BoxLike = { x: number; y: number; width: number; height: number; rotation: number };

/** The eight resize handles and the rotate knob of a box (an element, or a group's bounds). */
function BoxHandles({ box, zoom }: { box: BoxLike; zoom: number }) {
  const c = centerOf(box);
  const top = rotatePoint({ x: c.x, y: box.y }, c, box.rotation);
  // The rotate handle sits a fixed screen distance beyond the top edge, along the box's up.
  const r = (box.rotation * Math.PI) / 180;
  const knob = {
    x: top.x * zoom + Math.sin(r) * ROTATE_OFFSET,
    y: top.y * zoom - Math.cos(r) * ROTATE_OFFSET,
  };
  return (
    <>
      <line class="pe-outline" x1={top.x * zoom} y1={top.y * zoom} x2={knob.x} y2={knob.y} />
      <circle class="pe-handle pe-rotate" data-rotate="1" cx={knob.x} cy={knob.y} r={HANDLE / 2 + 1} />
      {handlePoints(box, zoom).map((h) => (
        <rect
          key={h.handle}
          class="pe-handle"
          data-handle={h.handle}
          x={h.x - HANDLE / 2}
          y={h.y - HANDLE / 2}
          width={HANDLE}
          height={HANDLE}
          style={{ cursor: CURSORS[h.handle] }}
        />
      ))}
    </>
  );
}

function GroupBox({ elements, zoom, editable }: { elements: Element[]; zoom: number; editable: boolean }) {
  const b = unionBounds(elements);
  return (
    <>
      <rect class="pe-group" x={b.x * zoom} y={b.y * zoom} width={b.width * zoom} height={b.height * zoom} />
      {editable && <BoxHandles box={{ ...b, rotation: 0 }} zoom={zoom} />}
    </>
  );
}

/**
 * Preflight findings on the page: a dashed outline around each element named, red for an error,
 * amber for a warning, in the coordinates the overlay draws in (the page's, or the entered
 * group's): an element inside a group not entered is outlined by the group that holds it.
 */
function FindingOutlines({ state, page, zoom }: { state: EditorState; page: Page; zoom: number }) {
  const marked = new Map<string, { element: Element; severity: 'error' | 'warning' }>();
  for (const found of state.findings) {
    if (found.pageId !== page.id || !found.elementId || found.severity === 'info') continue;
    const at = locate(page.elements, found.elementId);
    if (!at) continue;
    // Outside the entered group nothing is drawn; inside it, the child of the entered group (or
    // of the page) that holds the element stands for it.
    const depth = state.scopeId ? at.ancestors.findIndex((group) => group.id === state.scopeId) : -1;
    if (state.scopeId && depth < 0) continue;
    const shown = at.ancestors[depth + 1] ?? at.element;
    const known = marked.get(shown.id);
    const severity = found.severity === 'error' || known?.severity === 'error' ? 'error' : 'warning';
    marked.set(shown.id, { element: shown, severity });
  }
  return (
    <>
      {[...marked.values()].map(({ element, severity }) =>
        element.type === 'line' ? (
          <polyline
            key={element.id}
            points={poly(lineEnds(element), zoom)}
            class={`pe-finding is-${severity}`}
          />
        ) : (
          <polygon
            key={element.id}
            points={poly(cornersOf(element), zoom)}
            class={`pe-finding is-${severity}`}
          />
        ),
      )}
    </>
  );
}
