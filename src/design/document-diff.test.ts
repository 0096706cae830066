/** The property-level diff of design documents: ids over indexes, reorders, values shown short. */
import { describe, expect, it } from 'vitest';
import { type Change, describeChange, diffDocuments } from './document-diff.ts';

const rect = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'rect',
  x: 0,
  y: 0,
  width: 10,
  height: 10,
  ...extra,
});
const page = (id: string, elements: unknown[]) => ({ id, width: 100, height: 100, elements });
const doc = (...pages: unknown[]) => ({ schemaVersion: 1, activePageId: 'p1', variables: {}, pages });
const lines = (changes: Change[]) =>
  changes.map((change) => {
    const { sign, text } = describeChange(change);
    return `${sign} ${text}`;
  });

describe('diffDocuments', () => {
  it('finds nothing between equal documents, whatever their key order', () => {
    const reversed = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reversed);
      if (typeof value !== 'object' || value === null) return value;
      return Object.fromEntries(
        Object.entries(value)
          .reverse()
          .map(([key, item]) => [key, reversed(item)]),
      );
    };
    const a = doc(page('p1', [rect('a', { fill: '#000000' })]));
    expect(diffDocuments(a, reversed(a))).toEqual([]);
  });

  it('names a changed property by page and element id, not index', () => {
    const before = doc(page('p1', [rect('bg'), rect('title', { fill: '#111111' })]));
    const after = doc(page('p1', [rect('bg'), rect('title', { fill: '#222222' })]));
    expect(lines(diffDocuments(before, after))).toEqual([
      '~ pages[p1].elements[title].fill: "#111111" → "#222222"',
    ]);
  });

  it('reports added and removed pages and elements by id, with the element type', () => {
    const before = doc(page('p1', [rect('a')]), page('p2', []));
    const after = doc(page('p1', [rect('a'), { ...rect('badge'), type: 'ellipse' }]));
    expect(lines(diffDocuments(before, after))).toEqual([
      '+ pages[p1].elements[badge] (ellipse)',
      '- pages[p2]',
    ]);
  });

  it('reports a reorder once instead of every property of the moved items', () => {
    const before = doc(page('p1', [rect('a'), rect('b'), rect('c')]));
    const after = doc(page('p1', [rect('c'), rect('a'), rect('b')]));
    expect(lines(diffDocuments(before, after))).toEqual(['~ pages[p1].elements order: a, b, c → c, a, b']);
  });

  it('does not call an insertion or a removal a reorder', () => {
    const before = doc(page('p1', [rect('a'), rect('b')]));
    const after = doc(page('p1', [rect('a'), rect('new'), rect('b')]));
    expect(lines(diffDocuments(before, after))).toEqual(['+ pages[p1].elements[new] (rect)']);
    expect(lines(diffDocuments(after, before))).toEqual(['- pages[p1].elements[new] (rect)']);
  });

  it('compares arrays without ids as whole values, and objects key by key', () => {
    const line = (dash: number[]) => doc(page('p1', [{ ...rect('l'), type: 'line', dash }]));
    expect(lines(diffDocuments(line([4, 2]), line([4, 4])))).toEqual([
      '~ pages[p1].elements[l].dash: [4,2] → [4,4]',
    ]);
    const withVars = (variables: Record<string, string>) => ({ ...doc(page('p1', [])), variables });
    expect(
      lines(
        diffDocuments(
          withVars({ headline: 'A', old: 'x' }),
          withVars({ headline: 'B', 'call to action': 'Go' }),
        ),
      ),
    ).toEqual([
      '+ variables["call to action"]: "Go"',
      '~ variables.headline: "A" → "B"',
      '- variables.old: "x"',
    ]);
  });

  it('shows a null, a type change of a value and a missing optional property', () => {
    const text = (extra: Record<string, unknown>) =>
      doc(page('p1', [{ ...rect('t'), type: 'text', ...extra }]));
    expect(lines(diffDocuments(text({ maxLines: null }), text({ maxLines: 2, name: 'Title' })))).toEqual([
      '~ pages[p1].elements[t].maxLines: null → 2',
      '+ pages[p1].elements[t].name: "Title"',
    ]);
  });

  it('cuts long values short so an SVG or a long text stays on one line', () => {
    const svg = (body: string) => doc(page('p1', [{ ...rect('s'), type: 'svg', svg: `<svg>${body}</svg>` }]));
    const [line] = lines(diffDocuments(svg('a'.repeat(500)), svg('b'.repeat(500))));
    expect(line?.length).toBeLessThan(160);
    expect(line).toMatch(/^~ pages\[p1\]\.elements\[s\]\.svg: "<svg>a+… → "<svg>b+…$/);
  });

  it('quotes ids that would not read as one path segment', () => {
    const before = doc(page('p 1', [rect('a')]));
    const after = doc(page('p 1', [rect('a', { x: 5 })]));
    expect(lines(diffDocuments(before, after))).toEqual(['~ pages["p 1"].elements[a].x: 0 → 5']);
  });

  it('falls back to whole values when ids repeat, since they cannot be matched', () => {
    const before = {
      items: [
        { id: 'a', v: 1 },
        { id: 'a', v: 2 },
      ],
    };
    const after = {
      items: [
        { id: 'a', v: 1 },
        { id: 'a', v: 3 },
      ],
    };
    expect(diffDocuments(before, after)).toEqual([
      { op: 'set', path: 'items', from: before.items, to: after.items },
    ]);
  });
});
