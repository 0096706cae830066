/**
 * Geometry of elements in page units: rotated corners, axis-aligned bounds, hit-testing (a point
 * inside a rotated box, near a line) and marquee intersection. Rotation is clockwise in degrees
 * about the box centre, exactly as the engine's layout applies it.
 */
import type { Element } from '../../../src/engine/browser.ts';

export interface Point {
  x: number;
  y: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Box = Pick<Element, 'x' | 'y' | 'width' | 'height' | 'rotation'>;

export const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;

/** `p` rotated clockwise (y down) by `degrees` about `c`. */
export function rotatePoint(p: Point, c: Point, degrees: number): Point {
  const r = toRadians(degrees);
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const dx = p.x - c.x;
  const dy = p.y - c.y;
  return { x: c.x + dx * cos - dy * sin, y: c.y + dx * sin + dy * cos };
}

export function centerOf(box: Pick<Box, 'x' | 'y' | 'width' | 'height'>): Point {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The four corners as drawn, clockwise from the top-left of the unrotated box. */
export function cornersOf(box: Box): [Point, Point, Point, Point] {
  const c = centerOf(box);
  const r = box.rotation;
  return [
    rotatePoint({ x: box.x, y: box.y }, c, r),
    rotatePoint({ x: box.x + box.width, y: box.y }, c, r),
    rotatePoint({ x: box.x + box.width, y: box.y + box.height }, c, r),
    rotatePoint({ x: box.x, y: box.y + box.height }, c, r),
  ];
}

/** Axis-aligned bounds of points. */
export function boundsOfPoints(points: readonly Point[]): Rect {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  if (!Number.isFinite(minX)) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/** Axis-aligned bounds of an element as drawn (a line's from its two end points). */
export function elementBounds(el: Element): Rect {
  if (el.type === 'line') return boundsOfPoints(lineEnds(el));
  return boundsOfPoints(cornersOf(el));
}

export function unionBounds(elements: readonly Element[]): Rect {
  return boundsOfPoints(elements.flatMap((el) => cornersOfRect(elementBounds(el))));
}

function cornersOfRect(r: Rect): Point[] {
  return [
    { x: r.x, y: r.y },
    { x: r.x + r.width, y: r.y + r.height },
  ];
}

/** A line's two end points as drawn (rotation about the centre of its box applies to lines too). */
export function lineEnds(el: Box): [Point, Point] {
  const c = centerOf(el);
  return [
    rotatePoint({ x: el.x, y: el.y }, c, el.rotation),
    rotatePoint({ x: el.x + el.width, y: el.y + el.height }, c, el.rotation),
  ];
}

export function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Whether `p` is on the element; `tolerance` (page units) widens thin targets such as lines. */
export function hitsElement(el: Element, p: Point, tolerance: number): boolean {
  if (el.type === 'line') {
    const [a, b] = lineEnds(el);
    return distanceToSegment(p, a, b) <= Math.max(tolerance, el.strokeWidth / 2);
  }
  // Undo the rotation, then test against the plain box.
  const local = rotatePoint(p, centerOf(el), -el.rotation);
  return (
    local.x >= el.x - tolerance &&
    local.x <= el.x + el.width + tolerance &&
    local.y >= el.y - tolerance &&
    local.y <= el.y + el.height + tolerance
  );
}

/** The topmost visible element under `p` (later elements draw on top), or null. */
export function hitTest(elements: readonly Element[], p: Point, tolerance: number): Element | null {
  for (let i = elements.length - 1; i >= 0; i--) {
    const el = elements[i];
    if (el?.visible && hitsElement(el, p, tolerance)) return el;
  }
  return null;
}

export function rectsIntersect(a: Rect, b: Rect): boolean {
  return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
}

/** A rect from two drag points, whichever way the drag went. */
export function rectFromPoints(a: Point, b: Point): Rect {
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    width: Math.abs(a.x - b.x),
    height: Math.abs(a.y - b.y),
  };
}

/** Ids of visible, unlocked elements whose drawn bounds touch the marquee. */
export function marqueeSelect(elements: readonly Element[], marquee: Rect): string[] {
  return elements
    .filter((el) => el.visible && !el.locked && rectsIntersect(elementBounds(el), marquee))
    .map((el) => el.id);
}
