/**
 * A video's frame at time t is the page's still render at t, pixel for pixel: the raw RGBA frame a
 * video streams to its encoder equals the PNG of `timeMs: t`, for every frame of a page with every
 * kind of motion (presets in and out, keyframes moving, turning and scaling, an element sliding in
 * from beyond the page's edge, a typewriter, moving shadows, static elements above moving ones, an
 * image background), with the frame reuse (base bitmap, dirty regions) on and off. The reuse must
 * also draw less. Goldens: frames of the presets and of transitions between two pages.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DesignDocument } from '../../design/index.ts';
import { frameTimeMs } from '../../design/index.ts';
import { compareGolden, documentOf, jobFor, testPhoto } from './harness.ts';
import { rawFrames, rgbaToPng, stillRgba } from './motion-harness.ts';

const W = 320;
const H = 180;

let photo: Buffer;
beforeAll(async () => {
  photo = await testPhoto(200, 120, 'jpeg');
});

/** One second of everything that moves, at 10 fps. */
function everything(): DesignDocument {
  return documentOf([
    {
      id: 'p1',
      width: W,
      height: H,
      durationMs: 1000,
      background: { src: 'asset:bg', fit: 'cover' },
      elements: [
        {
          id: 'panel',
          type: 'rect',
          x: 10,
          y: 10,
          width: 140,
          height: 70,
          fill: '#0f172acc',
          cornerRadius: 8,
        },
        {
          id: 'title',
          type: 'text',
          x: 20,
          y: 20,
          width: 200,
          height: 40,
          text: 'Sliding in',
          color: '#ffffff',
          fontSize: 26,
          fontWeight: 700,
          animations: [{ preset: 'slide-left', phase: 'in', durationMs: 500 }],
        },
        // Static, above a moving element: drawn again wherever a moving one changes under it.
        {
          id: 'ring',
          type: 'ellipse',
          x: 120,
          y: 30,
          width: 60,
          height: 60,
          fill: '#00000000',
          stroke: '#f59e0b',
          strokeWidth: 5,
        },
        {
          id: 'spinner',
          type: 'rect',
          x: 230,
          y: 100,
          width: 50,
          height: 30,
          fill: '#22c55e',
          keyframes: [
            { timeMs: 0, x: 330, rotation: 0, scale: 0.5 },
            { timeMs: 600, x: 230, rotation: 180, scale: 1.5, opacity: 1 },
            { timeMs: 1000, opacity: 0.2 },
          ],
        },
        {
          id: 'pop',
          type: 'ellipse',
          x: 40,
          y: 110,
          width: 50,
          height: 50,
          fill: '#ef4444',
          animations: [{ preset: 'pop', phase: 'in', delayMs: 200, durationMs: 400 }],
        },
        {
          id: 'photo',
          type: 'image',
          x: 110,
          y: 100,
          width: 90,
          height: 60,
          src: 'asset:photo',
          cornerRadius: 10,
          animations: [
            { preset: 'zoom', phase: 'in', durationMs: 400 },
            { preset: 'fade', phase: 'out', durationMs: 300 },
          ],
        },
        {
          id: 'typed',
          type: 'text',
          x: 20,
          y: 60,
          width: 200,
          height: 30,
          text: 'Typewriter text',
          color: '#fde68a',
          fontSize: 18,
          shadow: { color: '#000000', blur: 4, offsetX: 2, offsetY: 2 },
          animations: [{ preset: 'typewriter', phase: 'in', durationMs: 800 }],
        },
        {
          id: 'down',
          type: 'group',
          x: 250,
          y: 10,
          width: 60,
          height: 60,
          elements: [
            { id: 'down-box', type: 'rect', x: 0, y: 0, width: 60, height: 60, fill: '#6366f1' },
            {
              id: 'down-label',
              type: 'text',
              x: 0,
              y: 18,
              width: 60,
              height: 24,
              text: 'Go',
              color: '#ffffff',
              fontSize: 18,
              align: 'center',
              animations: [{ preset: 'slide-down', phase: 'in', durationMs: 500 }],
            },
          ],
        },
      ],
    },
  ]);
}

const everythingJob = () =>
  jobFor(everything(), 'mp4', {
    fps: 10,
    assets: {
      bg: { bytes: photo, mimeType: 'image/jpeg' },
      photo: { bytes: photo, mimeType: 'image/jpeg' },
    },
  });

describe('motion frames', () => {
  it('draws each frame exactly as the still at its time, and draws less with reuse', async () => {
    const job = everythingJob();
    const reused = await rawFrames(job);
    const whole = await rawFrames(job, { reuse: false });
    expect(reused.frames).toHaveLength(10);
    expect([reused.width, reused.height]).toEqual([W, H]);
    for (const [index, frame] of reused.frames.entries()) {
      const still = await stillRgba(job, frameTimeMs(index, 10));
      expect(frame.equals(still), `frame ${index} differs from the still`).toBe(true);
      expect(frame.equals(whole.frames[index] as Buffer), `frame ${index} differs from a whole redraw`).toBe(
        true,
      );
    }
    expect(whole.dirtyPixels).toBe(10 * W * H);
    expect(reused.dirtyPixels).toBeLessThan(whole.dirtyPixels);
  });

  it('draws random moving pages exactly as whole redraws (property, seeded)', async () => {
    let seed = 20240611;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const at = (span: number) => Math.round(random() * span * 10) / 10 - span * 0.1;
    for (let doc = 0; doc < 6; doc++) {
      const elements = Array.from({ length: 7 }, (_, i) => {
        const type = pick(['rect', 'ellipse', 'text', 'line'] as const);
        const base = {
          id: `e${i}`,
          x: at(W),
          y: at(H),
          width: 20 + random() * 120,
          height: 10 + random() * 80,
        };
        const motion =
          random() < 0.5
            ? {
                keyframes: [
                  { timeMs: 0, x: at(W), y: at(H), rotation: random() * 90, scale: 0.3 + random() },
                  {
                    timeMs: 700,
                    x: at(W),
                    rotation: -random() * 90,
                    scale: 0.3 + random() * 2,
                    opacity: random(),
                  },
                ],
              }
            : {
                animations: [
                  {
                    preset: pick(['fade', 'slide-left', 'slide-up', 'zoom', 'pop'] as const),
                    phase: pick(['in', 'out'] as const),
                    durationMs: 400,
                  },
                ],
              };
        const paint = `#${Math.floor(random() * 0xffffff)
          .toString(16)
          .padStart(6, '0')}`;
        const shape =
          type === 'text'
            ? {
                type,
                text: 'Moving words',
                color: paint,
                fontSize: 12 + random() * 30,
                shadow: random() < 0.3 ? { color: '#000000', blur: 3 } : undefined,
              }
            : type === 'line'
              ? { type, stroke: paint, strokeWidth: 1 + random() * 8 }
              : { type, fill: paint, stroke: '#111111', strokeWidth: random() * 4 };
        return { ...base, ...shape, ...(random() < 0.7 ? motion : {}) };
      });
      const page = { id: 'p1', width: W, height: H, durationMs: 800, background: '#f1f5f9', elements };
      const job = jobFor(documentOf([page]), 'mp4', { fps: 10 });
      const reused = await rawFrames(job);
      const whole = await rawFrames(job, { reuse: false });
      for (const [index, frame] of reused.frames.entries())
        expect(frame.equals(whole.frames[index] as Buffer), `document ${doc}, frame ${index}`).toBe(true);
    }
  });

  it('matches the goldens of its frames', async () => {
    const { frames } = await rawFrames(everythingJob());
    for (const index of [0, 3, 6, 9]) {
      const png = await rgbaToPng(frames[index] as Buffer, W, H);
      const result = await compareGolden(`motion-presets-${index * 100}ms`, png);
      expect(result.pass, result.message).toBe(true);
    }
  });

  it('draws nothing again while nothing moves', async () => {
    const doc = documentOf([
      {
        id: 'p1',
        width: W,
        height: H,
        durationMs: 1000,
        background: '#1e293b',
        elements: [
          {
            id: 'hello',
            type: 'text',
            x: 20,
            y: 60,
            width: 280,
            height: 60,
            text: 'Hello',
            color: '#ffffff',
            fontSize: 40,
            animations: [{ preset: 'fade', phase: 'in', durationMs: 300 }],
          },
        ],
      },
    ]);
    const job = jobFor(doc, 'webm', { fps: 10 });
    const { frames, redrawn } = await rawFrames(job);
    // Frames 0-3 fade in (0, 100, 200 ms and the end at 300 ms); after that nothing changes.
    expect(redrawn).toBe(4);
    for (const index of [3, 9])
      expect((frames[index] as Buffer).equals(await stillRgba(job, index * 100))).toBe(true);
  });

  it('draws a transition between pages: the next faded in over the previous, or both slid', async () => {
    const page = (id: string, color: string, label: string, transition?: unknown) => ({
      id,
      width: W,
      height: H,
      durationMs: 1000,
      background: color,
      ...(transition ? { transition } : {}),
      elements: [
        {
          id: `${id}-label`,
          type: 'text',
          x: 20,
          y: 60,
          width: 280,
          height: 60,
          text: label,
          color: '#ffffff',
          fontSize: 40,
        },
      ],
    });
    for (const type of ['fade', 'slide'] as const) {
      const doc = documentOf([
        page('first', '#1d4ed8', 'First', { type, durationMs: 400 }),
        page('second', '#be123c', 'Second'),
      ]);
      const job = jobFor(doc, 'mp4', { fps: 10 });
      const { frames } = await rawFrames(job);
      // 1000 + 1000 - 400 ms: 16 frames; the transition runs from 600 to 1000 ms.
      expect(frames).toHaveLength(16);
      expect((frames[5] as Buffer).equals(await stillRgba(job, 500, 'first'))).toBe(true);
      expect((frames[11] as Buffer).equals(await stillRgba(job, 500, 'second'))).toBe(true);
      const middle = frames[8] as Buffer;
      expect(middle.equals(await stillRgba(job, 800, 'first'))).toBe(false);
      expect(middle.equals(await stillRgba(job, 200, 'second'))).toBe(false);
      const result = await compareGolden(`motion-transition-${type}`, await rgbaToPng(middle, W, H));
      expect(result.pass, result.message).toBe(true);
    }
  });

  it('renders a still of an animated page at timeMs (golden)', async () => {
    const job = { ...everythingJob(), format: 'png' as const };
    const still = await stillRgba(job, 250);
    const result = await compareGolden('motion-still-250ms', await rgbaToPng(still, W, H));
    expect(result.pass, result.message).toBe(true);
  });
});
