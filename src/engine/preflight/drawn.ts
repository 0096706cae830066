/**
 * Where each drawn element ends up: the laid-out ops tree walked with its transforms and opacities
 * multiplied down, so a check sees an element's box on the page whatever groups, rotations and
 * flips it sits in. An element that draws nothing (hidden, fully transparent, empty) is absent.
 */
import { multiply } from '../layout/geometry.ts';
import type { DrawOp, GroupOp, ImageOp, Matrix } from '../layout/types.ts';

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

export interface DrawnElement {
  op: GroupOp;
  /** Element coordinates (what its op's children use) → page coordinates. */
  matrix: Matrix;
  /** Its opacity times every enclosing group's. */
  opacity: number;
  /** Image ops it draws directly (not those of elements inside it). */
  images: ImageOp[];
}

export function drawnElements(ops: readonly DrawOp[]): Map<string, DrawnElement> {
  const found = new Map<string, DrawnElement>();
  const visit = (list: readonly DrawOp[], matrix: Matrix, opacity: number, owner: DrawnElement | null) => {
    for (const op of list) {
      if (op.op === 'image') owner?.images.push(op);
      if (op.op !== 'group') continue;
      const inner = op.transform ? multiply(matrix, op.transform) : matrix;
      const alpha = opacity * op.opacity;
      let next = owner;
      if (op.elementId) {
        next = { op, matrix: inner, opacity: alpha, images: [] };
        found.set(op.elementId, next);
      }
      visit(op.children, inner, alpha, next);
    }
  };
  visit(ops, IDENTITY, 1, null);
  return found;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The axis-aligned box around a rectangle once `matrix` maps it. */
export function mappedBounds(matrix: Matrix, rect: Rect): Rect {
  const corners = [
    [rect.x, rect.y],
    [rect.x + rect.width, rect.y],
    [rect.x, rect.y + rect.height],
    [rect.x + rect.width, rect.y + rect.height],
  ].map(([x = 0, y = 0]) => [
    matrix[0] * x + matrix[2] * y + matrix[4],
    matrix[1] * x + matrix[3] * y + matrix[5],
  ]);
  const xs = corners.map((corner) => corner[0] as number);
  const ys = corners.map((corner) => corner[1] as number);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/**
 * The ops drawn before `elementId`'s text: everything earlier in drawing order, the groups around
 * it, and the element's own highlight and span backgrounds (its runs and links left out).
 */
export function opsBeneathText(ops: readonly DrawOp[], elementId: string): { ops: DrawOp[]; found: boolean } {
  const kept: DrawOp[] = [];
  for (const op of ops) {
    if (op.op !== 'group') {
      kept.push(op);
      continue;
    }
    if (op.elementId === elementId) {
      const firstRun = op.children.findIndex((child) => child.op === 'text');
      const behind = firstRun < 0 ? op.children : op.children.slice(0, firstRun);
      kept.push({ ...op, children: behind });
      return { ops: kept, found: true };
    }
    const inner = opsBeneathText(op.children, elementId);
    if (inner.found) {
      kept.push({ ...op, children: inner.ops });
      return { ops: kept, found: true };
    }
    kept.push(op);
  }
  return { ops: kept, found: false };
}
