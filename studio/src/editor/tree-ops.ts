/**
 * The element tree as the editor sees it (groups nest elements, design document version 2): find
 * an element and the list holding it, change the lists of a tree without touching the rest, and
 * the transform from a group's own coordinates to the page. Ids are unique in a document, so an id
 * names one element wherever it sits. Every function returns new objects and shares the rest.
 */
import type { Element, GroupElement } from '../../../src/engine/browser.ts';

/** An element and where it sits: its parent group (null on the page) and groups around it. */
export interface Located {
  element: Element;
  parent: GroupElement | null;
  index: number;
  /** Groups around the element, outermost first. */
  ancestors: GroupElement[];
}

/** The element with `id` anywhere in the tree, or null. Iterative: depth is whatever the document has. */
export function locate(elements: readonly Element[], id: string): Located | null {
  const stack: { list: readonly Element[]; ancestors: GroupElement[] }[] = [
    { list: elements, ancestors: [] },
  ];
  while (stack.length > 0) {
    const { list, ancestors } = stack.pop() as (typeof stack)[number];
    for (const [index, element] of list.entries()) {
      if (element.id === id) return { element, parent: ancestors.at(-1) ?? null, index, ancestors };
      if (element.type === 'group')
        stack.push({ list: element.elements, ancestors: [...ancestors, element] });
    }
  }
  return null;
}

/** Every element of the tree, parents before children. */
export function allElements(elements: readonly Element[]): Element[] {
  const out: Element[] = [];
  const visit = (list: readonly Element[]) => {
    for (const el of list) {
      out.push(el);
      if (el.type === 'group') visit(el.elements);
    }
  };
  visit(elements);
  return out;
}

/** The list a scope shows: the page's elements, or the children of the entered group. */
export function scopeList(elements: readonly Element[], scopeId: string | null): readonly Element[] {
  if (scopeId === null) return elements;
  const found = locate(elements, scopeId)?.element;
  return found?.type === 'group' ? found.elements : elements;
}

/**
 * Applies `fn` to the list whose parent is `parentId` (null: the page's list) and returns the new
 * tree; lists that did not change keep their identity.
 */
export function updateList(
  elements: readonly Element[],
  parentId: string | null,
  fn: (list: readonly Element[]) => Element[],
): Element[] {
  if (parentId === null) return fn(elements);
  let changed = false;
  const next = elements.map((el) => {
    if (el.type !== 'group') return el;
    const children = el.id === parentId ? fn(el.elements) : updateList(el.elements, parentId, fn);
    if (children === el.elements) return el;
    changed = true;
    return { ...el, elements: children };
  });
  return changed ? next : (elements as Element[]);
}

/**
 * Replaces each element whose id `replace` answers for with what it returns (not descending into a
 * replaced group); every other list keeps its identity.
 */
export function replaceInTree(
  elements: readonly Element[],
  replace: (el: Element) => Element | undefined,
): Element[] {
  let changed = false;
  const next = elements.map((el) => {
    const replacement = replace(el);
    if (replacement !== undefined) {
      if (replacement !== el) changed = true;
      return replacement;
    }
    if (el.type !== 'group') return el;
    const children = replaceInTree(el.elements, replace);
    if (children === el.elements) return el;
    changed = true;
    return { ...el, elements: children };
  });
  return changed ? next : (elements as Element[]);
}

/** The tree without the elements `drop` says yes to (at any depth). */
export function removeFromTree(elements: readonly Element[], drop: (el: Element) => boolean): Element[] {
  let changed = false;
  const next: Element[] = [];
  for (const el of elements) {
    if (drop(el)) {
      changed = true;
      continue;
    }
    if (el.type === 'group') {
      const children = removeFromTree(el.elements, drop);
      if (children !== el.elements) {
        changed = true;
        next.push({ ...el, elements: children });
        continue;
      }
    }
    next.push(el);
  }
  return changed ? next : (elements as Element[]);
}

/** A 2D affine matrix [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f (Canvas order). */
export type Matrix = readonly [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

export function invert(m: Matrix): Matrix {
  const det = m[0] * m[3] - m[1] * m[2];
  if (det === 0) return IDENTITY;
  return [
    m[3] / det,
    -m[1] / det,
    -m[2] / det,
    m[0] / det,
    (m[2] * m[5] - m[3] * m[4]) / det,
    (m[1] * m[4] - m[0] * m[5]) / det,
  ];
}

export function apply(m: Matrix, p: { x: number; y: number }): { x: number; y: number } {
  return { x: m[0] * p.x + m[2] * p.y + m[4], y: m[1] * p.x + m[3] * p.y + m[5] };
}

/**
 * From a group's own coordinates to its parent's, as the engine draws it: translate by the box's
 * top-left, then flip and rotate (clockwise) about the box centre.
 */
export function groupMatrix(
  g: Pick<GroupElement, 'x' | 'y' | 'width' | 'height' | 'rotation' | 'flipX' | 'flipY'>,
): Matrix {
  const cx = g.x + g.width / 2;
  const cy = g.y + g.height / 2;
  const r = (g.rotation * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const sx = g.flipX ? -1 : 1;
  const sy = g.flipY ? -1 : 1;
  // About the centre: T(c)·R·F·T(-c), then the placement T(x, y).
  const linear: Matrix = [cos * sx, sin * sx, -sin * sy, cos * sy, 0, 0];
  const about = multiply([1, 0, 0, 1, cx, cy], multiply(linear, [1, 0, 0, 1, -cx, -cy]));
  return multiply(about, [1, 0, 0, 1, g.x, g.y]);
}

/** From the coordinates of the entered group (`scopeId`) to the page's; identity on the page. */
export function scopeMatrix(elements: readonly Element[], scopeId: string | null): Matrix {
  if (scopeId === null) return IDENTITY;
  const found = locate(elements, scopeId);
  if (found?.element.type !== 'group') return IDENTITY;
  return [...found.ancestors, found.element].reduce<Matrix>((m, g) => multiply(m, groupMatrix(g)), IDENTITY);
}
