/**
 * Snapping while dragging: the moving box's edges and centre pull to the page's edges and centre
 * and to other elements' edges and centres when within a threshold (in page units, so the caller
 * divides a screen distance by the zoom). Returns the correction and the guides to show.
 */
import type { Element, Page } from '../../../src/engine/browser.ts';
import { elementBounds, type Rect } from './geometry.ts';

export interface SnapTargets {
  xs: number[];
  ys: number[];
}

/** A guide line through the page at `position` on the given axis (x: vertical line). */
export interface Guide {
  axis: 'x' | 'y';
  position: number;
}

export interface SnapResult {
  dx: number;
  dy: number;
  guides: Guide[];
}

const spans = (start: number, size: number): number[] => [start, start + size / 2, start + size];

/** Page edges and centre, and each visible element's edges and centre, except the excluded ones. */
export function snapTargets(
  page: Pick<Page, 'width' | 'height'> & { elements: readonly Element[] },
  exclude: ReadonlySet<string>,
): SnapTargets {
  const xs = spans(0, page.width);
  const ys = spans(0, page.height);
  for (const el of page.elements) {
    if (!el.visible || exclude.has(el.id)) continue;
    const b = elementBounds(el);
    xs.push(...spans(b.x, b.width));
    ys.push(...spans(b.y, b.height));
  }
  return { xs, ys };
}

/** The smallest correction that puts one of `values` onto one of `targets`, within `threshold`. */
export function snapAxis(
  values: readonly number[],
  targets: readonly number[],
  threshold: number,
): { delta: number; position: number } | null {
  let best: { delta: number; position: number } | null = null;
  for (const value of values) {
    for (const target of targets) {
      const delta = target - value;
      if (Math.abs(delta) <= threshold && (best === null || Math.abs(delta) < Math.abs(best.delta))) {
        best = { delta, position: target };
      }
    }
  }
  return best;
}

/** Snaps a moving box (its edges and centre) on both axes independently. */
export function snapRect(rect: Rect, targets: SnapTargets, threshold: number): SnapResult {
  const x = snapAxis(spans(rect.x, rect.width), targets.xs, threshold);
  const y = snapAxis(spans(rect.y, rect.height), targets.ys, threshold);
  const guides: Guide[] = [];
  if (x) guides.push({ axis: 'x', position: x.position });
  if (y) guides.push({ axis: 'y', position: y.position });
  return { dx: x?.delta ?? 0, dy: y?.delta ?? 0, guides };
}

/** Snaps a single point (a dragged resize corner or edge). */
export function snapPoint(
  x: number | null,
  y: number | null,
  targets: SnapTargets,
  threshold: number,
): SnapResult {
  const sx = x === null ? null : snapAxis([x], targets.xs, threshold);
  const sy = y === null ? null : snapAxis([y], targets.ys, threshold);
  const guides: Guide[] = [];
  if (sx) guides.push({ axis: 'x', position: sx.position });
  if (sy) guides.push({ axis: 'y', position: sy.position });
  return { dx: sx?.delta ?? 0, dy: sy?.delta ?? 0, guides };
}
