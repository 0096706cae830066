/**
 * Which part of a page moves in a video: every top-level element from the first one that has
 * motion (animations, keyframes, a playing clip; in a group, any of its elements) up. What lies
 * below it is the same in every frame of the scene, so it is drawn once (scene.ts), and only the
 * moving part counts per frame in the cost limits (cost-limits.ts).
 */
import { type Element, type Page, walkElements } from '../../design/index.ts';

function moves(element: Element): boolean {
  for (const { element: el } of walkElements([element])) {
    if (el.type === 'video' || (el.animations?.length ?? 0) > 0 || (el.keyframes?.length ?? 0) > 0)
      return true;
  }
  return false;
}

/** Index in `page.elements` of the first element that moves; the element count when none does. */
export function movingFrom(page: Page): number {
  const index = page.elements.findIndex(moves);
  return index < 0 ? page.elements.length : index;
}
