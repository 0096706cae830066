import { describe, expect, it } from 'vitest';
import {
  createBlankDocument,
  type DesignDocument,
  type Element,
  elementSchema,
  type GroupElement,
} from '../../../src/engine/browser.ts';
import {
  activePage,
  deleteElements,
  duplicateElements,
  moveElementTo,
  updateActivePage,
  usedIds,
} from './doc-ops.ts';
import { groupElements, ungroupElement } from './grouping.ts';
import { apply, groupMatrix, IDENTITY, locate, type Matrix, multiply, scopeMatrix } from './tree-ops.ts';

const el = (raw: Record<string, unknown>): Element => elementSchema.parse(raw);

function docWith(elements: Element[]): DesignDocument {
  const doc = createBlankDocument(1000, 800);
  return updateActivePage(doc, (page) => ({ ...page, elements }));
}

/** Where a leaf's four box corners land on the page, through its own and its groups' transforms. */
function drawnCorners(elements: readonly Element[], id: string): { x: number; y: number }[] {
  const found = locate(elements, id);
  if (!found) throw new Error(`no ${id}`);
  const outer = found.ancestors.reduce<Matrix>((m, g) => multiply(m, groupMatrix(g)), IDENTITY);
  const e = found.element;
  // A leaf's own transform is the group one without the placement (its coordinates are absolute).
  const own = multiply(groupMatrix(e), [1, 0, 0, 1, -e.x, -e.y]);
  const m = multiply(outer, own);
  return [
    { x: e.x, y: e.y },
    { x: e.x + e.width, y: e.y },
    { x: e.x + e.width, y: e.y + e.height },
    { x: e.x, y: e.y + e.height },
  ].map((p) => apply(m, p));
}

function expectSamePlaces(before: readonly Element[], after: readonly Element[], ids: string[]) {
  for (const id of ids) {
    const a = drawnCorners(before, id);
    const b = drawnCorners(after, id);
    for (const [i, p] of a.entries()) {
      expect(b[i]?.x, `${id} corner ${i} x`).toBeCloseTo(p.x, 1);
      expect(b[i]?.y, `${id} corner ${i} y`).toBeCloseTo(p.y, 1);
    }
  }
}

const leaves = () => [
  el({ id: 'a', type: 'rect', x: 100, y: 120, width: 200, height: 100, rotation: 30, fill: '#f00' }),
  el({ id: 'b', type: 'ellipse', x: 400, y: 300, width: 120, height: 80, flipX: true, fill: '#0f0' }),
  el({
    id: 'c',
    type: 'text',
    x: 50,
    y: 500,
    width: 300,
    height: 60,
    text: 'Hi',
    rotation: -12,
    flipY: true,
  }),
  el({ id: 'd', type: 'rect', x: 700, y: 700, width: 50, height: 50, fill: '#00f' }),
];

describe('grouping', () => {
  it('groups elements into a box of their drawn bounds, children relative to it, nothing moving', () => {
    const doc = docWith(leaves());
    const result = groupElements(doc, ['c', 'a', 'b']);
    if (!result.ok) throw new Error(result.reason);
    const page = activePage(result.doc);
    // The group takes the place of the topmost member; the others keep theirs.
    expect(page.elements.map((e) => e.id)).toEqual([result.selection[0], 'd']);
    const group = page.elements[0] as GroupElement;
    expect(group.type).toBe('group');
    expect(group.elements.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    // The box is the union of the drawn (rotated) bounds: the rotated rect reaches left of x 100.
    expect(group.x).toBeLessThan(100);
    expect(Math.min(...group.elements.map((e) => e.x))).toBeGreaterThanOrEqual(-0.01);
    expectSamePlaces(activePage(doc).elements, page.elements, ['a', 'b', 'c', 'd']);
  });

  it('refuses elements from different lists', () => {
    const grouped = groupElements(docWith(leaves()), ['a', 'b']);
    if (!grouped.ok) throw new Error(grouped.reason);
    const mixed = groupElements(grouped.doc, ['a', 'd']);
    expect(mixed).toMatchObject({ ok: false });
  });

  it('ungroups a rotated, flipped, nested group baking its transform into children', () => {
    const doc = docWith(leaves());
    const inner = groupElements(doc, ['a', 'b']);
    if (!inner.ok) throw new Error(inner.reason);
    const outer = groupElements(inner.doc, [inner.selection[0] as string, 'c']);
    if (!outer.ok) throw new Error(outer.reason);
    const outerId = outer.selection[0] as string;
    const innerId = inner.selection[0] as string;
    // Turn and mirror both groups; remember where every leaf is drawn then.
    const turned = updateActivePage(outer.doc, (page) => ({
      ...page,
      elements: page.elements.map((e) =>
        e.id === outerId && e.type === 'group'
          ? {
              ...e,
              rotation: 40,
              flipX: true,
              opacity: 0.5,
              elements: e.elements.map((c) => (c.id === innerId ? { ...c, rotation: -25, flipY: true } : c)),
            }
          : e,
      ),
    }));
    const before = activePage(turned).elements;
    const once = ungroupElement(turned, outerId);
    if (!once.ok) throw new Error(once.reason);
    expect(once.selection).toEqual([innerId, 'c']);
    expectSamePlaces(before, activePage(once.doc).elements, ['a', 'b', 'c']);
    const c = locate(activePage(once.doc).elements, 'c')?.element;
    expect(c?.opacity).toBe(0.5);
    const twice = ungroupElement(once.doc, innerId);
    if (!twice.ok) throw new Error(twice.reason);
    expectSamePlaces(before, activePage(twice.doc).elements, ['a', 'b', 'c']);
    expect(activePage(twice.doc).elements.map((e) => e.id)).toEqual(['a', 'b', 'c', 'd']);
    for (const leaf of activePage(twice.doc).elements)
      expect(elementSchema.safeParse(leaf).success).toBe(true);
  });

  it('refuses to ungroup a group whose shadow, blur or clip no child could keep', () => {
    const grouped = groupElements(docWith(leaves()), ['a', 'b']);
    if (!grouped.ok) throw new Error(grouped.reason);
    const id = grouped.selection[0] as string;
    const clipped = updateActivePage(grouped.doc, (page) => ({
      ...page,
      elements: page.elements.map((e) => (e.id === id ? { ...e, clip: true, blur: 3 } : e)),
    }));
    const result = ungroupElement(clipped, id);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/blur, clip/);
  });

  it('maps the scope of a nested group to the page', () => {
    const inner = groupElements(docWith(leaves()), ['a', 'b']);
    if (!inner.ok) throw new Error(inner.reason);
    const id = inner.selection[0] as string;
    const group = activePage(inner.doc).elements.find((e) => e.id === id) as GroupElement;
    const m = scopeMatrix(activePage(inner.doc).elements, id);
    expect(apply(m, { x: 0, y: 0 })).toEqual({ x: group.x, y: group.y });
  });

  it('tree-aware document operations: ids, duplicate, reorder and delete inside a group', () => {
    const grouped = groupElements(docWith(leaves()), ['a', 'b', 'c']);
    if (!grouped.ok) throw new Error(grouped.reason);
    const id = grouped.selection[0] as string;
    expect(usedIds(grouped.doc).has('b')).toBe(true);
    const dup = duplicateElements(grouped.doc, ['b']);
    const group = () => (d: DesignDocument) =>
      activePage(d).elements.find((e) => e.id === id) as GroupElement;
    expect(group()(dup.doc).elements.map((e) => e.id)).toEqual(['a', 'b', 'c', dup.ids[0]]);
    const moved = moveElementTo(dup.doc, 'a', 3);
    expect(group()(moved).elements.map((e) => e.id)).toEqual(['b', 'c', dup.ids[0], 'a']);
    const deleted = deleteElements(moved, ['c']);
    expect(group()(deleted).elements.map((e) => e.id)).toEqual(['b', dup.ids[0], 'a']);
    // A duplicated group gets fresh ids for its children too.
    const copy = duplicateElements(grouped.doc, [id]);
    const ids = [...usedIds(copy.doc)];
    expect(new Set(ids).size).toBe(ids.length);
    expect((activePage(copy.doc).elements.at(-1) as GroupElement).elements).toHaveLength(3);
  });
});
