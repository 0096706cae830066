/**
 * Dragging an image's crop rectangle (fractions 0-1 of the source): moving it keeps its size
 * inside the source; dragging a corner moves that corner only, the opposite one staying put,
 * never past the source's edges nor below a minimum size. Arrow keys use the same rules.
 */
import type { ImageElement } from '../../../src/engine/browser.ts';

export type Crop = NonNullable<ImageElement['crop']>;
export type CropHandle = 'move' | 'nw' | 'ne' | 'sw' | 'se';

export const MIN_CROP = 0.02;
export const FULL_CROP: Crop = { x: 0, y: 0, width: 1, height: 1 };

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
const r4 = (v: number) => Math.round(v * 10_000) / 10_000;

/** The crop after dragging `handle` by (dx, dy) fractions of the source. */
export function dragCrop(start: Crop, handle: CropHandle, dx: number, dy: number): Crop {
  if (handle === 'move') {
    return {
      x: r4(clamp(start.x + dx, 0, 1 - start.width)),
      y: r4(clamp(start.y + dy, 0, 1 - start.height)),
      width: start.width,
      height: start.height,
    };
  }
  let left = start.x;
  let top = start.y;
  let right = start.x + start.width;
  let bottom = start.y + start.height;
  if (handle.includes('w')) left = clamp(left + dx, 0, right - MIN_CROP);
  if (handle.includes('e')) right = clamp(right + dx, left + MIN_CROP, 1);
  if (handle.includes('n')) top = clamp(top + dy, 0, bottom - MIN_CROP);
  if (handle.includes('s')) bottom = clamp(bottom + dy, top + MIN_CROP, 1);
  // Rounded edges, then sizes from them, so x + width never passes 1 by a rounding step.
  const x = r4(left);
  const y = r4(top);
  return { x, y, width: r4(Math.min(1 - x, right - x)), height: r4(Math.min(1 - y, bottom - y)) };
}
