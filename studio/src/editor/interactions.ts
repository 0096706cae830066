/**
 * What a pointer drag on the page does, as a small state machine in page units: move the
 * selection (with snapping), resize from a handle, drag a line end, rotate, or draw a marquee.
 * Every pointer move only replaces the store's draft; pointer up commits once. The caller turns
 * DOM events into points and says what was under the pointer. Points are in the coordinates of
 * the entered group when there is one (the Stage maps them through the group's inverse transform),
 * so picking, snapping, moving, resizing and rotating work the same among a group's children.
 */
import type { DesignDocument, Element, LineElement } from '../../../src/engine/browser.ts';
import { activePage, mapElements, replaceElements } from './doc-ops.ts';
import {
  centerOf,
  hitTest,
  marqueeSelect,
  type Point,
  type Rect,
  rectFromPoints,
  unionBounds,
} from './geometry.ts';
import { type SnapTargets, snapPoint, snapRect, snapTargets } from './snapping.ts';
import type { EditorStore } from './store.ts';
import {
  type Handle,
  moveElement,
  moveLineEnd,
  resizeBox,
  resizeGroup,
  resizeTo,
  rotateGroup,
  rotateTo,
} from './transform.ts';
import { locate } from './tree-ops.ts';

/** What the pointer went down on: a handle of the selection, or the page itself. */
export type PointerTarget =
  | { kind: 'handle'; handle: Handle }
  | { kind: 'rotate' }
  | { kind: 'line-end'; end: 'start' | 'end' }
  | { kind: 'page' };

export interface PointerInput {
  point: Point;
  shift: boolean;
  /** Screen pixels of slack, already divided by the zoom (page units). */
  tolerance: number;
}

type Drag =
  | {
      kind: 'move';
      start: Point;
      doc: DesignDocument;
      ids: string[];
      bounds: Rect;
      targets: SnapTargets;
      moved: boolean;
    }
  | { kind: 'resize'; handle: Handle; doc: DesignDocument; elements: Element[]; targets: SnapTargets }
  | { kind: 'line'; end: 'start' | 'end'; doc: DesignDocument; line: LineElement; targets: SnapTargets }
  | { kind: 'rotate'; doc: DesignDocument; elements: Element[]; pivot: Point; start: Point }
  | { kind: 'marquee'; start: Point; base: readonly string[] };

export class PointerController {
  private drag: Drag | null = null;

  constructor(private readonly store: EditorStore) {}

  get active(): boolean {
    return this.drag !== null;
  }

  private selectedElements(doc: DesignDocument): Element[] {
    const elements = activePage(doc).elements;
    return this.store
      .get()
      .selection.map((id) => locate(elements, id)?.element)
      .filter((el): el is Element => el !== undefined);
  }

  down(target: PointerTarget, input: PointerInput): void {
    const state = this.store.get();
    const doc = state.doc;
    const page = scopeOf(doc, state.scopeId);
    const selected = this.selectedElements(doc);
    const exclude = new Set(selected.map((el) => el.id));
    if (target.kind !== 'page' && !state.readOnly) {
      const targets = snapTargets(page, exclude);
      const [first] = selected;
      if (target.kind === 'rotate' && first) {
        // One element turns about its own centre; a group about the centre of its bounds.
        const pivot = centerOf(selected.length === 1 ? first : unionBounds(selected));
        this.drag = { kind: 'rotate', doc, elements: selected, pivot, start: input.point };
      }
      if (target.kind === 'handle')
        this.drag = { kind: 'resize', handle: target.handle, doc, elements: selected, targets };
      if (target.kind === 'line-end' && first?.type === 'line')
        this.drag = { kind: 'line', end: target.end, doc, line: first, targets };
      return;
    }
    const hit = hitTest(page.elements, input.point, input.tolerance);
    if (!hit) {
      this.drag = { kind: 'marquee', start: input.point, base: input.shift ? state.selection : [] };
      if (!input.shift) this.store.select([]);
      return;
    }
    let selection = state.selection;
    if (input.shift) {
      selection = selection.includes(hit.id)
        ? selection.filter((id) => id !== hit.id)
        : [...selection, hit.id];
    } else if (!selection.includes(hit.id)) {
      selection = [hit.id];
    }
    this.store.select(selection);
    if (state.readOnly || !selection.includes(hit.id)) return;
    const moving = page.elements.filter((el) => selection.includes(el.id) && !el.locked);
    if (moving.length === 0) return;
    const ids = moving.map((el) => el.id);
    this.drag = {
      kind: 'move',
      start: input.point,
      doc,
      ids,
      bounds: unionBounds(moving),
      targets: snapTargets(page, new Set(ids)),
      moved: false,
    };
  }

  move(input: PointerInput): void {
    const drag = this.drag;
    if (!drag) return;
    const p = input.point;
    const threshold = input.tolerance * 1.5;
    switch (drag.kind) {
      case 'move': {
        const dx0 = p.x - drag.start.x;
        const dy0 = p.y - drag.start.y;
        // A click that wobbles a pixel is not a move.
        if (!drag.moved && Math.hypot(dx0, dy0) < input.tolerance / 2) return;
        drag.moved = true;
        const snap = snapRect(
          { ...drag.bounds, x: drag.bounds.x + dx0, y: drag.bounds.y + dy0 },
          drag.targets,
          threshold,
        );
        const dx = dx0 + snap.dx;
        const dy = dy0 + snap.dy;
        this.store.set({
          draft: mapElements(drag.doc, drag.ids, (el) => moveElement(el, dx, dy)),
          guides: snap.guides,
        });
        return;
      }
      case 'resize': {
        const [only] = drag.elements;
        const snap = only?.rotation === 0 || drag.elements.length > 1 ? snapHandle(p, drag, threshold) : null;
        const point = snap ? { x: p.x + snap.dx, y: p.y + snap.dy } : p;
        const changed =
          drag.elements.length === 1 && only
            ? [resizeTo(only, resizeBox(only, drag.handle, point, input.shift))]
            : resizeGroup(
                drag.elements,
                unionBounds(drag.elements),
                resizeBox({ ...unionBounds(drag.elements), rotation: 0 }, drag.handle, point, input.shift),
              );
        this.store.set({ draft: replaceElements(drag.doc, changed), guides: snap?.guides ?? [] });
        return;
      }
      case 'line': {
        const snap = snapPoint(p.x, p.y, drag.targets, threshold);
        const moved = moveLineEnd(drag.line, drag.end, { x: p.x + snap.dx, y: p.y + snap.dy });
        this.store.set({ draft: replaceElements(drag.doc, [moved]), guides: snap.guides });
        return;
      }
      case 'rotate': {
        const [only] = drag.elements;
        const changed =
          drag.elements.length === 1 && only
            ? [{ ...only, rotation: rotateTo(only.rotation, drag.pivot, drag.start, p, input.shift) }]
            : rotateGroup(drag.elements, drag.pivot, rotateTo(0, drag.pivot, drag.start, p, input.shift));
        this.store.set({ draft: replaceElements(drag.doc, changed) });
        return;
      }
      case 'marquee': {
        const rect = rectFromPoints(drag.start, p);
        const s = this.store.get();
        const hits = marqueeSelect(scopeOf(s.doc, s.scopeId).elements, rect);
        this.store.set({ marquee: rect, selection: [...new Set([...drag.base, ...hits])] });
        return;
      }
    }
  }

  up(): void {
    const drag = this.drag;
    this.drag = null;
    if (!drag) return;
    if (drag.kind === 'marquee') {
      this.store.set({ marquee: null });
      return;
    }
    const draft = this.store.get().draft;
    if (draft) this.store.commit(draft);
    else this.store.set({ guides: [] });
  }

  /** Escape during a drag: drop the draft, nothing is committed. */
  cancel(): void {
    this.drag = null;
    this.store.set({ draft: null, guides: [], marquee: null });
  }
}

/** What the pointer works among: the page, or the entered group's children in its own box. */
export function scopeOf(doc: DesignDocument, scopeId: string | null): SnapScope {
  const page = activePage(doc);
  const group = scopeId === null ? null : locate(page.elements, scopeId)?.element;
  if (group?.type === 'group') return { width: group.width, height: group.height, elements: group.elements };
  return page;
}

type SnapScope = { width: number; height: number; elements: readonly Element[] };

/** Snaps the dragged handle point on the axes the handle moves along. */
function snapHandle(p: Point, drag: Extract<Drag, { kind: 'resize' }>, threshold: number) {
  const moveX = drag.handle.includes('e') || drag.handle.includes('w');
  const moveY = drag.handle.includes('n') || drag.handle.includes('s');
  return snapPoint(moveX ? p.x : null, moveY ? p.y : null, drag.targets, threshold);
}
