/**
 * What each top-level draw op of a page is, for deciding which rows a change touches: a signature
 * (the op as data, with each image named by its content hash, so the same op over other bytes or
 * another workspace's font differs) and a conservative band of device rows it may paint. Rows are
 * over-estimated on purpose (layout/bounds.ts): strokes by their miter reach, text by generous
 * ascent, descent and advance, transforms (rotation, flips) through the corners of the bounds,
 * shadows by their offset and blur reach, blurs by theirs, plus anti-aliasing slack; a link draws
 * nothing. Under-estimating would leave stale pixels; the incremental property test guards this.
 */
import { Path2D } from '@napi-rs/canvas';
import { opRect, type Rect, transformRect } from '../layout/bounds.ts';
import { scaling } from '../layout/geometry.ts';
import type { DrawOp } from '../layout/types.ts';

export interface OpFootprint {
  signature: string;
  /** First and last device rows (inclusive) the op may paint. */
  rows: [number, number];
}

/** Anti-aliasing and rounding slack, in device pixels. */
export const SLACK = 3;

/** Exact bounds of path data, from Skia. */
const skiaPathBounds = (d: string): Rect => new Path2D(d).getBounds();

/** The op's conservative bounds in device pixels (not yet grown by the slack). */
export function deviceRectOf(op: DrawOp, scale: number): Rect {
  return transformRect(scaling(scale, scale), opRect(op, { pathBounds: skiaPathBounds, deviceScale: scale }));
}

/** The op as data, each image named by its content hash alone: its key may be a data URI of megabytes. */
export function signatureOf(op: DrawOp, imageIds: ReadonlyMap<string, string>): string {
  return JSON.stringify(op, (key, value) =>
    key === 'key' && typeof value === 'string' ? `#${imageIds.get(value) ?? value}` : value,
  );
}

export function footprintOf(op: DrawOp, scale: number, imageIds: ReadonlyMap<string, string>): OpFootprint {
  const [, top, , bottom] = deviceRectOf(op, scale);
  const signature = signatureOf(op, imageIds);
  // Empty (nothing drawn): no rows. Unbounded (never from Skia's bounds, but safe): every row.
  const rows: [number, number] = !(top <= bottom)
    ? [0, -1]
    : [
        Number.isFinite(top) ? Math.floor(top) - SLACK : -1e9,
        Number.isFinite(bottom) ? Math.ceil(bottom) + SLACK : 1e9,
      ];
  return { signature, rows };
}
