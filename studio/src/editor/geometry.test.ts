import { describe, expect, it } from 'vitest';
import { elementSchema } from '../../../src/engine/browser.ts';
import { elementBounds, hitTest, marqueeSelect, rectFromPoints, rotatePoint } from './geometry.ts';
import { snapAxis, snapRect } from './snapping.ts';
import { moveLineEnd, normalizeAngle, resizeBox, rotateGroup, rotateTo } from './transform.ts';

const rect = (id: string, x: number, y: number, w: number, h: number, extra = {}) =>
  elementSchema.parse({ id, type: 'rect', x, y, width: w, height: h, ...extra });

describe('geometry', () => {
  it('rotates clockwise with y pointing down, as the engine does', () => {
    const p = rotatePoint({ x: 10, y: 0 }, { x: 0, y: 0 }, 90);
    expect(p.x).toBeCloseTo(0);
    expect(p.y).toBeCloseTo(10);
  });

  it('hit-tests the topmost visible element, rotated boxes and lines included', () => {
    const bottom = rect('a', 0, 0, 100, 100);
    const top = rect('b', 50, 50, 100, 100);
    const hidden = rect('c', 0, 0, 200, 200, { visible: false });
    expect(hitTest([bottom, top, hidden], { x: 60, y: 60 }, 0)?.id).toBe('b');
    expect(hitTest([bottom, top], { x: 10, y: 10 }, 0)?.id).toBe('a');
    // A thin box rotated 90° covers a vertical strip instead of a horizontal one.
    const bar = rect('bar', 0, 45, 100, 10, { rotation: 90 });
    expect(hitTest([bar], { x: 50, y: 5 }, 0)?.id).toBe('bar');
    expect(hitTest([bar], { x: 5, y: 50 }, 0)).toBeNull();
    const line = elementSchema.parse({ id: 'l', type: 'line', x: 0, y: 0, width: 100, height: 100 });
    expect(hitTest([line], { x: 52, y: 50 }, 3)?.id).toBe('l');
    expect(hitTest([line], { x: 80, y: 20 }, 3)).toBeNull();
  });

  it('selects by marquee, skipping locked and hidden elements', () => {
    const els = [
      rect('a', 0, 0, 10, 10),
      rect('b', 100, 100, 10, 10),
      rect('c', 5, 5, 10, 10, { locked: true }),
    ];
    expect(marqueeSelect(els, rectFromPoints({ x: 20, y: 20 }, { x: -5, y: -5 }))).toEqual(['a']);
  });

  it('gives the drawn bounds of a rotated element', () => {
    const b = elementBounds(rect('a', 0, 0, 100, 100, { rotation: 45 }));
    expect(b.width).toBeCloseTo(141.42, 1);
  });
});

describe('snapping', () => {
  it('picks the nearest target within the threshold', () => {
    expect(snapAxis([10, 50], [0, 100, 53], 5)).toEqual({ delta: 3, position: 53 });
    expect(snapAxis([10], [30], 5)).toBeNull();
  });

  it('snaps a box by its edges or centre on each axis and names the guides', () => {
    const r = snapRect({ x: 447, y: 10, width: 100, height: 20 }, { xs: [0, 500, 1000], ys: [0] }, 6);
    expect(r.dx).toBe(3); // centre 497 → 500
    expect(r.dy).toBe(0);
    expect(r.guides).toEqual([{ axis: 'x', position: 500 }]);
  });
});

describe('transform', () => {
  it('resizes from a corner, keeping the opposite corner fixed', () => {
    const box = { x: 0, y: 0, width: 100, height: 50, rotation: 0 };
    expect(resizeBox(box, 'se', { x: 150, y: 80 }, false)).toEqual({ x: 0, y: 0, width: 150, height: 80 });
    expect(resizeBox(box, 'nw', { x: -50, y: -10 }, false)).toEqual({
      x: -50,
      y: -10,
      width: 150,
      height: 60,
    });
    // Shift keeps the ratio 2:1.
    expect(resizeBox(box, 'se', { x: 200, y: 60 }, true)).toEqual({ x: 0, y: 0, width: 200, height: 100 });
  });

  it('keeps the anchor of a rotated box where it was on the page', () => {
    const box = { x: 0, y: 0, width: 100, height: 100, rotation: 90 };
    // Rotated 90° clockwise, the unrotated top-left corner is drawn at the top-right (100, 0).
    const anchorBefore = rotatePoint({ x: 0, y: 0 }, { x: 50, y: 50 }, 90);
    const out = resizeBox(box, 'se', rotatePoint({ x: 200, y: 100 }, { x: 50, y: 50 }, 90), false);
    expect(out.width).toBeCloseTo(200);
    const anchorAfter = rotatePoint(
      { x: out.x, y: out.y },
      { x: out.x + out.width / 2, y: out.y + out.height / 2 },
      90,
    );
    expect(anchorAfter.x).toBeCloseTo(anchorBefore.x);
    expect(anchorAfter.y).toBeCloseTo(anchorBefore.y);
  });

  it('rotates about the centre and snaps to 15° with shift', () => {
    const c = { x: 0, y: 0 };
    expect(rotateTo(0, c, { x: 10, y: 0 }, { x: 0, y: 10 }, false)).toBe(90);
    expect(rotateTo(0, c, { x: 10, y: 0 }, { x: 10, y: 2.2 }, true)).toBe(15);
    expect(normalizeAngle(270)).toBe(-90);
  });

  it('moves a line end and drops the rotation without moving the other end', () => {
    const line = elementSchema.parse({
      id: 'l',
      type: 'line',
      x: 0,
      y: 0,
      width: 100,
      height: 0,
      rotation: 90,
    });
    if (line.type !== 'line') throw new Error('not a line');
    const moved = moveLineEnd(line, 'end', { x: 10, y: 10 });
    expect(moved.rotation).toBe(0);
    expect([moved.x, moved.y]).toEqual([50, -50]);
    expect([moved.x + moved.width, moved.y + moved.height]).toEqual([10, 10]);
  });

  it('turns a group as one piece about its centre: centres orbit, each element turns alike', () => {
    const a = elementSchema.parse({ id: 'a', type: 'rect', x: 0, y: 0, width: 20, height: 10 });
    const b = elementSchema.parse({
      id: 'b',
      type: 'rect',
      x: 80,
      y: 0,
      width: 20,
      height: 10,
      rotation: 10,
    });
    // The pair's bounds are 0..100 × 0..10: centre (50, 5). A quarter turn puts a above b.
    const [ra, rb] = rotateGroup([a, b], { x: 50, y: 5 }, 90);
    expect([ra?.x, ra?.y, ra?.rotation]).toEqual([40, -40, 90]);
    expect([rb?.x, rb?.y, rb?.rotation]).toEqual([40, 40, 100]);
    // Sizes are kept; a half turn back and forth returns the originals.
    const back = rotateGroup(rotateGroup([a, b], { x: 50, y: 5 }, 180), { x: 50, y: 5 }, -180);
    expect(back.map((el) => [el.x, el.y, el.width, el.height, el.rotation])).toEqual([
      [0, 0, 20, 10, 0],
      [80, 0, 20, 10, 10],
    ]);
  });
});
