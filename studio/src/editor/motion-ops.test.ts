import { describe, expect, it } from 'vitest';
import {
  type Animation,
  type Element,
  elementSchema,
  motionBounds,
  type Page,
  pageSchema,
  poseAt,
} from '../../../src/engine/browser.ts';
import {
  assignLanes,
  barWindow,
  captureKeyframe,
  describeKeyframe,
  hasMotion,
  moveAnimation,
  nextAnimation,
  resizeAnimation,
  retimeKeyframe,
  snap,
  timelineRows,
  withAnimation,
  withoutAnimation,
  withoutKeyframe,
} from './motion-ops.ts';
import { previewLayers } from './preview.ts';

const rect = (id: string, extra: object = {}): Element =>
  elementSchema.parse({ id, type: 'rect', x: 10, y: 20, width: 100, height: 50, fill: '#000000', ...extra });

const PAGE_MS = 5000;

describe('timeline rows', () => {
  it('lists every element top first, a group’s children under it one level deeper', () => {
    const group = elementSchema.parse({
      id: 'g',
      type: 'group',
      x: 0,
      y: 0,
      width: 100,
      height: 100,
      elements: [rect('a'), rect('b')],
    });
    const rows = timelineRows([rect('bottom'), group, rect('top')]);
    expect(rows.map((r) => [r.element.id, r.depth])).toEqual([
      ['top', 0],
      ['g', 0],
      ['b', 1],
      ['a', 1],
      ['bottom', 0],
    ]);
    expect(hasMotion([group])).toBe(false);
    const animated = { ...group, elements: [rect('a', { animations: [{ preset: 'fade', phase: 'in' }] })] };
    expect(hasMotion([animated as Element])).toBe(true);
  });

  it('puts overlapping bars on separate lanes and reuses a lane once it is free', () => {
    expect(
      assignLanes([
        { startMs: 0, durationMs: 600 },
        { startMs: 300, durationMs: 600 },
        { startMs: 600, durationMs: 100 },
        { startMs: 950, durationMs: 10 },
      ]),
    ).toEqual([0, 1, 0, 0]);
  });
});

describe('moving and stretching a bar', () => {
  const fadeIn: Animation = { preset: 'fade', phase: 'in', durationMs: 600 };
  const fadeOut: Animation = { preset: 'fade', phase: 'out', durationMs: 600 };

  it('moves an animation by its delay, kept on the page', () => {
    expect(moveAnimation(fadeIn, 100, PAGE_MS)).toEqual({ ...fadeIn, delayMs: 100 });
    expect(moveAnimation({ ...fadeIn, delayMs: 50 }, -100, PAGE_MS).delayMs).toBe(0);
    expect(moveAnimation(fadeIn, 99_999, PAGE_MS).delayMs).toBe(PAGE_MS - 600);
  });

  it('places an out animation, which ended with the page, where it is drawn', () => {
    expect(barWindow(fadeOut, PAGE_MS)).toEqual({ startMs: 4400, durationMs: 600 });
    expect(moveAnimation(fadeOut, -100, PAGE_MS).delayMs).toBe(4300);
  });

  it('stretches from the end, keeping the start, within the page and never under 100 ms', () => {
    expect(resizeAnimation(fadeIn, 100, PAGE_MS)).toEqual({ ...fadeIn, delayMs: 0, durationMs: 700 });
    expect(resizeAnimation(fadeIn, -10_000, PAGE_MS).durationMs).toBe(100);
    expect(resizeAnimation({ ...fadeIn, delayMs: 4000 }, 10_000, PAGE_MS).durationMs).toBe(1000);
    // The out animation keeps its start: its end moves.
    expect(resizeAnimation(fadeOut, -200, PAGE_MS)).toEqual({ ...fadeOut, delayMs: 4400, durationMs: 400 });
    expect(snap(1234.5)).toBe(1230);
  });

  it('adds a fade in, then a fade out, up to the most the schema allows, and removes', () => {
    let el = rect('r');
    expect(nextAnimation(el)).toMatchObject({ preset: 'fade', phase: 'in' });
    el = { ...el, animations: withAnimation(el, nextAnimation(el)) ?? [] };
    expect(nextAnimation(el).phase).toBe('out');
    const full = { ...el, animations: new Array(motionBounds.animationsPerElement).fill(fadeIn) };
    expect(withAnimation(full, fadeIn)).toBeNull();
    expect(withoutAnimation(el, 0)).toBeUndefined();
    expect(elementSchema.safeParse({ ...el, animations: withAnimation(el, fadeOut) }).success).toBe(true);
  });
});

describe('keyframes', () => {
  it("captures the element's own x, y, opacity and rotation at the playhead, replacing one at that time", () => {
    const el = rect('r', { opacity: 0.5, rotation: 15 });
    const first = captureKeyframe(el, 1000.4);
    expect(first).toEqual([{ timeMs: 1000, x: 10, y: 20, opacity: 0.5, rotation: 15 }]);
    const moved = {
      ...el,
      x: 300,
      keyframes: [
        { timeMs: 0, x: 0 },
        { timeMs: 1000, scale: 2, x: 1 },
      ],
    };
    const next = captureKeyframe(moved as Element, 1000);
    expect(next).toEqual([
      { timeMs: 0, x: 0 },
      { timeMs: 1000, scale: 2, x: 300, y: 20, opacity: 0.5, rotation: 15 },
    ]);
    const parsed = elementSchema.parse({ ...moved, keyframes: next });
    // The pose at that time is what was captured.
    const page = pageSchema.parse({ id: 'p', width: 400, height: 300, elements: [parsed] }) as Page;
    expect(poseAt(parsed, 1000, page)).toMatchObject({ x: 300, y: 20, opacity: 0.5, rotation: 15, scale: 2 });
    expect(withoutKeyframe(parsed, 0)).toHaveLength(1);
    expect(withoutKeyframe({ ...parsed, keyframes: [{ timeMs: 0 }] }, 0)).toBeUndefined();
    expect(retimeKeyframe(parsed, 0, 2000).map((k) => k.timeMs)).toEqual([1000, 2000]);
    expect(describeKeyframe({ timeMs: 0, x: 1.234, opacity: 0.5, rotation: 10 })).toBe(
      'x 1.23, opacity 50%, rotation 10°',
    );
  });
});

describe('preview layers', () => {
  const page = (id: string, extra: object = {}) =>
    pageSchema.parse({
      id,
      width: 400,
      height: 300,
      durationMs: 2000,
      elements: [rect(`${id}-r`, { animations: [{ preset: 'fade', phase: 'in', durationMs: 1000 }] })],
      ...extra,
    }) as Page;

  it('is the page at that time, with its scales, as a still at that time draws it', () => {
    const zoomed = pageSchema.parse({
      id: 'z',
      width: 400,
      height: 300,
      elements: [rect('z-r', { animations: [{ preset: 'zoom', phase: 'in', durationMs: 1000 }] })],
    }) as Page;
    const [layer, ...rest] = previewLayers([zoomed], 0, 500, true);
    expect(rest).toEqual([]);
    expect(layer?.alpha).toBe(1);
    const scale = layer?.scales.get('z-r') ?? 0;
    expect(scale).toBeGreaterThan(0.5);
    expect(scale).toBeLessThan(1);
    expect(layer?.page.elements[0]?.opacity).toBeGreaterThan(0);
  });

  it('shows the next page fading in over the end of this one, when transitions are on', () => {
    const pages = [page('a', { transition: { type: 'fade', durationMs: 500 } }), page('b')];
    const during = previewLayers(pages, 0, 1750, true);
    expect(during.map((l) => l.page.id)).toEqual(['a', 'b']);
    expect(during[1]?.alpha).toBeGreaterThan(0);
    expect(during[1]?.alpha).toBeLessThan(1);
    // The next page's own time starts with the transition.
    expect(during[1]?.page.elements[0]?.opacity).toBeCloseTo(
      previewLayers([pages[1] as Page], 0, 250, false)[0]?.page.elements[0]?.opacity ?? -1,
      10,
    );
    // Page b starts while a's transition runs: b at 100 ms still has a beneath it.
    expect(previewLayers(pages, 1, 100, true).map((l) => l.page.id)).toEqual(['a', 'b']);
    expect(previewLayers(pages, 0, 1750, false).map((l) => l.page.id)).toEqual(['a']);
    expect(previewLayers(pages, 0, 1000, true).map((l) => l.page.id)).toEqual(['a']);
  });
});
