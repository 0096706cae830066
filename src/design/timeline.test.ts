import { describe, expect, it } from 'vitest';
import type { TextElement } from './elements.ts';
import type { DesignDocument, Page } from './schema.ts';
import {
  ease,
  frameCount,
  layersAt,
  pageAtTime,
  parseVideoFrameKey,
  poseAt,
  revealText,
  scenesOf,
  stillTimeMs,
  videoFrameKey,
} from './timeline.ts';
import { parseDesignDocument } from './validate.ts';

function doc(pages: unknown[]): DesignDocument {
  const parsed = parseDesignDocument({ schemaVersion: 2, pages });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.document;
}

const box = { x: 100, y: 200, width: 300, height: 100 };

function onePage(element: Record<string, unknown>, page: Record<string, unknown> = {}): Page {
  return doc([{ id: 'p', width: 1000, height: 800, elements: [{ id: 'e', ...box, ...element }], ...page }])
    .pages[0] as Page;
}

describe('easing', () => {
  it('runs from 0 to 1 and follows the CSS curves', () => {
    for (const name of ['linear', 'ease', 'ease-in', 'ease-out', 'ease-in-out'] as const) {
      expect(ease(name, 0)).toBe(0);
      expect(ease(name, 1)).toBe(1);
      expect(ease(name, -1)).toBe(0);
      expect(ease(name, 2)).toBe(1);
    }
    expect(ease('linear', 0.25)).toBe(0.25);
    // ease-in is slow at first, ease-out fast; ease-in-out is symmetric about the middle.
    expect(ease('ease-in', 0.25)).toBeLessThan(0.25);
    expect(ease('ease-out', 0.25)).toBeGreaterThan(0.25);
    expect(ease('ease-in-out', 0.5)).toBeCloseTo(0.5, 6);
    expect(ease('ease-in-out', 0.3) + ease('ease-in-out', 0.7)).toBeCloseTo(1, 6);
  });
});

describe('poses', () => {
  it('fades in from its delay, holds, then fades out by the end of the scene', () => {
    const page = onePage(
      {
        type: 'rect',
        animations: [
          { preset: 'fade', phase: 'in', delayMs: 500, durationMs: 1000, easing: 'linear' },
          { preset: 'fade', phase: 'out', durationMs: 1000, easing: 'linear' },
        ],
      },
      { durationMs: 4000 },
    );
    const element = page.elements[0];
    if (!element) throw new Error('no element');
    expect(poseAt(element, 0, page).opacity).toBe(0);
    expect(poseAt(element, 1000, page).opacity).toBeCloseTo(0.5);
    expect(poseAt(element, 2000, page).opacity).toBe(1);
    expect(poseAt(element, 3500, page).opacity).toBeCloseTo(0.5);
    expect(poseAt(element, 4000, page).opacity).toBe(0);
    expect(stillTimeMs(page)).toBe(1500);
  });

  it('slides in the named direction and ends at its own position', () => {
    const page = onePage({
      type: 'rect',
      animations: [{ preset: 'slide-left', phase: 'in', easing: 'linear' }],
    });
    const element = page.elements[0];
    if (!element) throw new Error('no element');
    const start = poseAt(element, 0, page);
    const middle = poseAt(element, 300, page);
    const end = poseAt(element, 600, page);
    // Moving left: it starts to the right (half the page's width) and arrives at x.
    expect(start.x).toBe(box.x + 500);
    expect(middle.x).toBeCloseTo(box.x + 250);
    expect(end.x).toBe(box.x);
    expect(end.y).toBe(box.y);
  });

  it('eases keyframes per property and holds outside them', () => {
    const page = onePage({
      type: 'rect',
      keyframes: [
        { timeMs: 1000, x: 0, easing: 'linear' },
        { timeMs: 2000, x: 100, scale: 2, easing: 'linear' },
        { timeMs: 3000, rotation: 90, easing: 'linear' },
      ],
    });
    const element = page.elements[0];
    if (!element) throw new Error('no element');
    expect(poseAt(element, 0, page).x).toBe(0);
    expect(poseAt(element, 1500, page).x).toBeCloseTo(50);
    expect(poseAt(element, 5000, page).x).toBe(100);
    expect(poseAt(element, 0, page).scale).toBe(2);
    expect(poseAt(element, 2000, page).rotation).toBe(90);
    expect(poseAt(element, 1500, page).y).toBe(box.y);
  });

  it('pops through an overshoot and settles at its size', () => {
    const page = onePage({ type: 'rect', animations: [{ preset: 'pop', phase: 'in', durationMs: 1000 }] });
    const element = page.elements[0];
    if (!element) throw new Error('no element');
    const scales = [0, 250, 500, 750, 1000].map((t) => poseAt(element, t, page).scale);
    expect(scales[0]).toBeCloseTo(0, 9);
    expect(Math.max(...scales)).toBeGreaterThan(1);
    expect(scales.at(-1)).toBe(1);
    const { scales: drawn } = pageAtTime(page, 500);
    expect(drawn.get('e')).toBeGreaterThan(1);
  });
});

describe('typewriter', () => {
  it('reveals graphemes and keeps the hidden ones in the layout, transparent', () => {
    const page = onePage({
      type: 'text',
      text: 'Hi 👋🏽 there',
      animations: [{ preset: 'typewriter', phase: 'in', durationMs: 1000 }],
    });
    const at = (t: number) => pageAtTime(page, t).page.elements[0] as TextElement;
    expect(at(0).opacity).toBe(0);
    const half = at(500);
    expect(half.spans?.map((span) => span.text).join('')).toBe('Hi 👋🏽 there');
    expect(half.spans?.[0]?.text).toBe('Hi 👋🏽 ');
    expect(half.spans?.[1]?.color).toBe('#00000000');
    expect(at(1000).text).toBe('Hi 👋🏽 there');
    expect(at(1000).spans).toBeUndefined();
  });

  it('splits styled spans and keeps each style', () => {
    const page = onePage({
      type: 'text',
      spans: [
        { text: 'ab', fontWeight: 700 },
        { text: 'cd', color: '#ff0000' },
      ],
    });
    const revealed = revealText(page.elements[0] as TextElement, 0.75);
    expect(revealed.spans).toEqual([
      { text: 'ab', fontWeight: 700 },
      { text: 'c', color: '#ff0000' },
      { text: 'd', color: '#00000000' },
    ]);
  });
});

describe('scenes and transitions', () => {
  const pages = doc([
    { id: 'a', width: 100, height: 100, durationMs: 2000, transition: { type: 'fade', durationMs: 500 } },
    { id: 'b', width: 100, height: 100, durationMs: 1000, transition: { type: 'slide', durationMs: 200 } },
    { id: 'c', width: 100, height: 100 },
  ]).pages;

  it('overlaps each transition with both scenes', () => {
    const { scenes, durationMs } = scenesOf(pages);
    expect(scenes.map((scene) => scene.startMs)).toEqual([0, 1500, 2300]);
    expect(durationMs).toBe(2300 + 5000);
    expect(frameCount(durationMs, 30)).toBe(219);
  });

  it('fades the next scene in over the previous one, then slides', () => {
    expect(layersAt(pages, 1000)).toEqual([{ pageIndex: 0, timeMs: 1000, alpha: 1, offsetX: 0 }]);
    const fading = layersAt(pages, 1750);
    expect(fading.map((layer) => layer.pageIndex)).toEqual([0, 1]);
    expect(fading[1]?.alpha).toBeCloseTo(0.5);
    expect(fading[1]?.timeMs).toBe(250);
    const sliding = layersAt(pages, 2400);
    expect(sliding[0]?.offsetX).toBeCloseTo(-50);
    expect(sliding[1]?.offsetX).toBeCloseTo(50);
    expect(layersAt(pages, 2600)).toEqual([{ pageIndex: 2, timeMs: 300, alpha: 1, offsetX: 0 }]);
  });
});

describe('video frames', () => {
  it('names a clip frame by asset and time, and loops a clip within its length', () => {
    expect(parseVideoFrameKey(videoFrameKey('asset:clip_1', 1234.4))).toEqual({
      assetId: 'clip_1',
      clipMs: 1234,
    });
    expect(parseVideoFrameKey('asset:clip_1')).toBeNull();
    const page = onePage({ type: 'video', src: 'asset:clip', trimStartMs: 1000, loop: true });
    const lengths = { mediaDurationMs: () => 3000 };
    const clipAt = (t: number) =>
      (pageAtTime(page, t, lengths).page.elements[0] as { trimStartMs: number }).trimStartMs;
    expect(clipAt(0)).toBe(1000);
    expect(clipAt(1500)).toBe(2500);
    expect(clipAt(2500)).toBe(1500);
  });
});

describe('validation', () => {
  const base = { schemaVersion: 2, pages: [{ id: 'p', width: 100, height: 100, elements: [] as unknown[] }] };
  const issuesOf = (input: unknown) => {
    const result = parseDesignDocument(input);
    return result.ok ? [] : result.issues;
  };

  it('refuses 10,000 keyframes with the limit, on one element or spread over many', () => {
    const keyframes = (n: number) => Array.from({ length: n }, (_, i) => ({ timeMs: i, x: i }));
    const one = structuredClone(base);
    one.pages[0]?.elements.push({
      id: 'e',
      type: 'rect',
      x: 0,
      y: 0,
      width: 1,
      height: 1,
      keyframes: keyframes(10_000),
    });
    expect(issuesOf(one)[0]).toEqual({
      path: 'pages[0].elements[0].keyframes',
      message: 'Too big: expected array to have <=100 items',
    });
    const many = structuredClone(base);
    for (let i = 0; i < 100; i++)
      many.pages[0]?.elements.push({
        id: `e${i}`,
        type: 'rect',
        x: 0,
        y: 0,
        width: 1,
        height: 1,
        keyframes: keyframes(100),
      });
    expect(issuesOf(many)[0]?.message).toBe('at most 2000 keyframes in a document');
  });

  it('refuses a 10-hour page, a typewriter on a shape and a transition longer than its scenes', () => {
    const input = structuredClone(base) as { pages: Record<string, unknown>[] };
    Object.assign(input.pages[0] as object, {
      durationMs: 36_000_000,
    });
    expect(issuesOf(input)[0]?.path).toBe('pages[0].durationMs');
    const typed = structuredClone(base);
    typed.pages[0]?.elements.push({
      id: 'e',
      type: 'rect',
      x: 0,
      y: 0,
      width: 1,
      height: 1,
      animations: [{ preset: 'typewriter', phase: 'in' }],
    });
    expect(issuesOf(typed)[0]?.path).toBe('pages[0].elements[0].animations[0].preset');
    const joined = {
      schemaVersion: 2,
      pages: [
        { id: 'a', width: 1, height: 1, durationMs: 1000, transition: { type: 'fade', durationMs: 1500 } },
        { id: 'b', width: 1, height: 1 },
      ],
    };
    expect(issuesOf(joined)[0]).toMatchObject({ path: 'pages[0].transition.durationMs' });
  });

  it('leaves a still document as it was', () => {
    const parsed = parseDesignDocument({ schemaVersion: 2, pages: [{ id: 'p', width: 10, height: 10 }] });
    expect(parsed.ok && parsed.document).toEqual({
      schemaVersion: 2,
      activePageId: 'p',
      variables: {},
      pages: [{ id: 'p', width: 10, height: 10, background: '#ffffff', elements: [] }],
    });
    if (!parsed.ok) return;
    const page = parsed.document.pages[0] as Page;
    expect(pageAtTime(page, 1234).page).toBe(page);
  });
});
