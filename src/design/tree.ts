/**
 * Walking the element tree (groups nest elements, version 2): every element of a page in drawing
 * order with its path, and mapping a tree to a new one. Iterative where depth is untrusted.
 */
import type { Element, GroupElement } from './elements.ts';
import type { Page } from './schema.ts';

export interface Visit {
  element: Element;
  /** Path from the page: `['elements', 2, 'elements', 0]`. */
  path: (string | number)[];
  /** Groups around the element, outermost first. */
  ancestors: GroupElement[];
}

/** Every element of the list and of its groups, depth first, parents before their children. */
export function* walkElements(
  elements: readonly Element[],
  path: (string | number)[] = ['elements'],
  ancestors: GroupElement[] = [],
): Generator<Visit> {
  for (const [index, element] of elements.entries()) {
    const here = [...path, index];
    yield { element, path: here, ancestors };
    if (element.type === 'group')
      yield* walkElements(element.elements, [...here, 'elements'], [...ancestors, element]);
  }
}

/** Every element of a page, nested ones included. */
export function pageElements(page: Page): Element[] {
  return Array.from(walkElements(page.elements), (visit) => visit.element);
}

/** A new element list with `fn` applied to every element, children before their group. */
export function mapElements(
  elements: readonly Element[],
  fn: (element: Element, path: (string | number)[]) => Element,
  path: (string | number)[] = ['elements'],
): Element[] {
  return elements.map((element, index) => {
    const here = [...path, index];
    if (element.type !== 'group') return fn(element, here);
    const children = mapElements(element.elements, fn, [...here, 'elements']);
    const group = children.every((child, i) => child === element.elements[i])
      ? element
      : { ...element, elements: children };
    return fn(group, here);
  });
}
