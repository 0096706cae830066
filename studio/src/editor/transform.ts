/**
 * The pure edits a pointer makes: move by a delta, resize from one of eight handles (the opposite
 * handle stays put on the page even when the element is rotated; shift keeps the aspect ratio),
 * resize a group proportionally, drag a line's end point, rotate about the centre (shift snaps
 * to 15°), and rotate a group about its centre as one piece. Each returns new element objects; nothing is mutated.
 */
import type { Element, LineElement } from '../../../src/engine/browser.ts';
import { type Box, centerOf, lineEnds, type Point, type Rect, rotatePoint } from './geometry.ts';

export type Handle = 'nw' | 'n' | 'ne' | 'e' | 'se' | 's' | 'sw' | 'w';

export const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/** The handle's direction from the centre: -1, 0 or 1 on each axis. */
export function handleVector(handle: Handle): { hx: number; hy: number } {
  return {
    hx: handle.includes('w') ? -1 : handle.includes('e') ? 1 : 0,
    hy: handle.includes('n') ? -1 : handle.includes('s') ? 1 : 0,
  };
}

/** Keeps stored numbers short: a hundredth of a unit is far below a device pixel (and no -0). */
export const round2 = (value: number): number => Math.round(value * 100) / 100 || 0;

const MIN_SIZE = 1;

export function moveElement<E extends Element>(el: E, dx: number, dy: number): E {
  return { ...el, x: round2(el.x + dx), y: round2(el.y + dy) };
}

/**
 * The box after dragging `handle` to page point `p`. The pointer is read in the element's own
 * (unrotated) frame, and the new centre is rotated back so the anchor corner does not move.
 */
export function resizeBox(box: Box, handle: Handle, p: Point, keepRatio: boolean): Rect {
  const { hx, hy } = handleVector(handle);
  const c = centerOf(box);
  const q = rotatePoint(p, c, -box.rotation);
  const anchor = { x: c.x - (hx * box.width) / 2, y: c.y - (hy * box.height) / 2 };
  let width = hx === 0 ? box.width : Math.max(MIN_SIZE, hx * (q.x - anchor.x));
  let height = hy === 0 ? box.height : Math.max(MIN_SIZE, hy * (q.y - anchor.y));
  if (keepRatio && box.width > 0 && box.height > 0) {
    const scale =
      hx === 0
        ? height / box.height
        : hy === 0
          ? width / box.width
          : Math.max(width / box.width, height / box.height);
    width = Math.max(MIN_SIZE, box.width * scale);
    height = Math.max(MIN_SIZE, box.height * scale);
  }
  const local = {
    x: hx === 0 ? c.x : anchor.x + (hx * width) / 2,
    y: hy === 0 ? c.y : anchor.y + (hy * height) / 2,
  };
  const nc = rotatePoint(local, c, box.rotation);
  return {
    x: round2(nc.x - width / 2),
    y: round2(nc.y - height / 2),
    width: round2(width),
    height: round2(height),
  };
}

/**
 * An element given a new box. A design group's children are stored relative to its box, so they
 * scale with it (positions and sizes), as a group scales in every design tool.
 */
export function resizeTo<E extends Element>(el: E, box: Rect): E {
  const sized = { ...el, x: box.x, y: box.y, width: box.width, height: box.height };
  if (sized.type !== 'group') return sized;
  const from = { x: 0, y: 0, width: el.width, height: el.height };
  const to = { x: 0, y: 0, width: box.width, height: box.height };
  return { ...sized, elements: resizeGroup(sized.elements, from, to) };
}

/** Maps every element of a selection from its old bounds into new bounds (positions and sizes scale). */
export function resizeGroup(elements: readonly Element[], from: Rect, to: Rect): Element[] {
  const sx = from.width > 0 ? to.width / from.width : 1;
  const sy = from.height > 0 ? to.height / from.height : 1;
  return elements.map((el) => {
    const c = centerOf(el);
    const ncx = to.x + (c.x - from.x) * sx;
    const ncy = to.y + (c.y - from.y) * sy;
    const width = el.width * sx;
    const height = el.height * sy;
    return resizeTo(el, {
      x: round2(ncx - width / 2),
      y: round2(ncy - height / 2),
      width: round2(width),
      height: round2(height),
    });
  });
}

/**
 * A line with one end moved to `p`. The result has no rotation: its two drawn end points say it all,
 * so a rotated line becomes the same line expressed plainly.
 */
export function moveLineEnd(el: LineElement, end: 'start' | 'end', p: Point): LineElement {
  const [a, b] = lineEnds(el);
  const start = end === 'start' ? p : a;
  const finish = end === 'end' ? p : b;
  return {
    ...el,
    rotation: 0,
    x: round2(start.x),
    y: round2(start.y),
    width: round2(finish.x - start.x),
    height: round2(finish.y - start.y),
  };
}

/** Degrees in (-180, 180]. */
export function normalizeAngle(degrees: number): number {
  let a = degrees % 360;
  if (a > 180) a -= 360;
  if (a <= -180) a += 360;
  return Object.is(a, -0) ? 0 : a;
}

/** Angle (degrees, clockwise from the x axis) of `p` seen from `c`. */
export function angleAt(c: Point, p: Point): number {
  return (Math.atan2(p.y - c.y, p.x - c.x) * 180) / Math.PI;
}

/** The rotation after turning from pointer `start` to `p` about `c`; shift snaps to 15°. */
export function rotateTo(initial: number, c: Point, start: Point, p: Point, snap: boolean): number {
  const raw = initial + angleAt(c, p) - angleAt(c, start);
  const angle = snap ? Math.round(raw / 15) * 15 : Math.round(raw * 10) / 10;
  return normalizeAngle(angle);
}

/**
 * A group turned by `degrees` about `pivot` as one rigid piece: each element's centre moves round
 * the pivot and the element turns by the same angle (a line's ends follow, since they are drawn
 * from its rotated box).
 */
export function rotateGroup(elements: readonly Element[], pivot: Point, degrees: number): Element[] {
  return elements.map((el) => {
    const c = rotatePoint(centerOf(el), pivot, degrees);
    return {
      ...el,
      x: round2(c.x - el.width / 2),
      y: round2(c.y - el.height / 2),
      rotation: normalizeAngle(Math.round((el.rotation + degrees) * 10) / 10),
    };
  });
}
