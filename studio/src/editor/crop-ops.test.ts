import { describe, expect, it } from 'vitest';
import { imageElementSchema } from '../../../src/engine/browser.ts';
import { dragCrop, MIN_CROP } from './crop-ops.ts';

const crop = { x: 0.2, y: 0.2, width: 0.5, height: 0.4 };

describe('crop dragging', () => {
  it('moves the crop inside the source, keeping its size', () => {
    expect(dragCrop(crop, 'move', 0.1, -0.1)).toEqual({ x: 0.3, y: 0.1, width: 0.5, height: 0.4 });
    expect(dragCrop(crop, 'move', 0.9, 0.9)).toEqual({ x: 0.5, y: 0.6, width: 0.5, height: 0.4 });
  });

  it('moves one corner, the opposite staying put, within the source and a minimum size', () => {
    expect(dragCrop(crop, 'nw', -0.1, -0.1)).toEqual({ x: 0.1, y: 0.1, width: 0.6, height: 0.5 });
    expect(dragCrop(crop, 'se', 0.5, 0.5)).toEqual({ x: 0.2, y: 0.2, width: 0.8, height: 0.8 });
    const tiny = dragCrop(crop, 'ne', -1, 1);
    expect(tiny.width).toBeCloseTo(MIN_CROP);
    expect(tiny.y + tiny.height).toBeCloseTo(0.6);
  });

  it('always gives a crop the schema accepts', () => {
    for (const handle of ['move', 'nw', 'ne', 'sw', 'se'] as const)
      for (const d of [-2, -0.33333, 0.123456, 0.77777, 3]) {
        const next = dragCrop(crop, handle, d, -d);
        const parsed = imageElementSchema.safeParse({
          id: 'i',
          type: 'image',
          x: 0,
          y: 0,
          width: 10,
          height: 10,
          src: 'https://example.com/a.png',
          crop: next,
        });
        expect([handle, d, parsed.success]).toEqual([handle, d, true]);
      }
  });
});
