/**
 * Group and ungroup as pure document operations. A group's children are stored relative to its box
 * (a child at x 0 sits on the group's left edge), so grouping subtracts the new box's top-left and
 * ungrouping maps each child back through the group's transform: nothing moves on screen.
 *
 * Ungrouping a rotated or flipped group bakes the group's transform into each child, as Figma,
 * Illustrator and Canva do: the child's centre goes where it was drawn, its rotation becomes the
 * group's plus its own (its own reversed under a single flip), and flips combine. The group's
 * opacity multiplies into each child's (overlapping children then blend separately, as in those
 * tools). A group's shadow, blur and clip act on the group as a whole and no child can carry them,
 * so ungrouping such a group is refused with a message saying what to remove first.
 */
import {
  type DesignDocument,
  type Element,
  elementSchema,
  type GroupElement,
} from '../../../src/engine/browser.ts';
import { activePage, freshId, updateActivePage, usedIds } from './doc-ops.ts';
import { unionBounds } from './geometry.ts';
import { round2 } from './transform.ts';
import { apply, groupMatrix, locate, updateList } from './tree-ops.ts';

export type GroupingResult =
  | { ok: true; doc: DesignDocument; selection: string[] }
  | { ok: false; reason: string };

/** Degrees in (-180, 180], rounded to a hundredth. */
function angle(degrees: number): number {
  let a = Math.round((degrees % 360) * 100) / 100;
  if (a > 180) a -= 360;
  if (a <= -180) a += 360;
  return a || 0;
}

/**
 * Wraps the given elements (all in one list: the page's, or one group's) in a new group whose box
 * is their drawn bounds, placed where the topmost of them was in paint order.
 */
export function groupElements(doc: DesignDocument, ids: readonly string[]): GroupingResult {
  const page = activePage(doc);
  const found = ids.map((id) => locate(page.elements, id));
  if (found.length < 1 || found.some((f) => f === null))
    return { ok: false, reason: 'Select elements to group.' };
  const located = found as NonNullable<(typeof found)[number]>[];
  const parentId = located[0]?.parent?.id ?? null;
  if (located.some((f) => (f.parent?.id ?? null) !== parentId))
    return {
      ok: false,
      reason: 'Only elements in the same group (or all on the page) can be grouped together.',
    };
  const members = [...located].sort((a, b) => a.index - b.index);
  const bounds = unionBounds(members.map((m) => m.element));
  const x = round2(bounds.x);
  const y = round2(bounds.y);
  const group = elementSchema.parse({
    id: freshId('group', usedIds(doc)),
    type: 'group',
    x,
    y,
    width: Math.max(1, round2(bounds.width)),
    height: Math.max(1, round2(bounds.height)),
    elements: members.map((m) => ({ ...m.element, x: round2(m.element.x - x), y: round2(m.element.y - y) })),
  }) as GroupElement;
  const wanted = new Set(ids);
  const top = members.at(-1)?.index ?? 0;
  const next = updateActivePage(doc, (p) => ({
    ...p,
    elements: updateList(p.elements, parentId, (list) => {
      const before = list.slice(0, top + 1).filter((el) => !wanted.has(el.id));
      const after = list.slice(top + 1);
      return [...before, group, ...after];
    }),
  }));
  return { ok: true, doc: next, selection: [group.id] };
}

/** A child of `group` expressed in the group's parent coordinates, looking exactly as it did. */
export function releaseChild(group: GroupElement, child: Element): Element {
  const centre = apply(groupMatrix(group), { x: child.x + child.width / 2, y: child.y + child.height / 2 });
  const groupFlipX = group.flipX ?? false;
  const groupFlipY = group.flipY ?? false;
  // Under one flip (a mirror) a clockwise turn inside reads as counter-clockwise outside.
  const mirrored = groupFlipX !== groupFlipY;
  const flipX = groupFlipX !== (child.flipX ?? false);
  const flipY = groupFlipY !== (child.flipY ?? false);
  const released: Element = {
    ...child,
    x: round2(centre.x - child.width / 2),
    y: round2(centre.y - child.height / 2),
    rotation: angle(group.rotation + (mirrored ? -child.rotation : child.rotation)),
    opacity: Math.round(child.opacity * group.opacity * 1000) / 1000,
    visible: child.visible && group.visible,
    locked: child.locked || group.locked,
  };
  // Flips are optional fields: leave them out rather than storing false.
  delete released.flipX;
  delete released.flipY;
  if (flipX) released.flipX = true;
  if (flipY) released.flipY = true;
  return released;
}

/** Replaces a group by its children, in its place in paint order. */
export function ungroupElement(doc: DesignDocument, groupId: string): GroupingResult {
  const page = activePage(doc);
  const found = locate(page.elements, groupId);
  const group = found?.element;
  if (!found || group?.type !== 'group') return { ok: false, reason: 'Select a group to ungroup.' };
  const lost = [group.shadow && 'shadow', group.blur && 'blur', group.clip && 'clip'].filter(Boolean);
  if (lost.length > 0)
    return {
      ok: false,
      reason: `This group's ${lost.join(', ')} applies to the group as a whole: remove it before ungrouping.`,
    };
  const children = group.elements.map((child) => releaseChild(group, child));
  const next = updateActivePage(doc, (p) => ({
    ...p,
    elements: updateList(p.elements, found.parent?.id ?? null, (list) => [
      ...list.slice(0, found.index),
      ...children,
      ...list.slice(found.index + 1),
    ]),
  }));
  return { ok: true, doc: next, selection: children.map((c) => c.id) };
}
