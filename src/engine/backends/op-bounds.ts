/**
 * What each top-level draw op of a page is, for deciding which rows a change touches: a signature
 * (the op as data, with each image named by its content hash, so the same op over other bytes or
 * another workspace's font differs) and a conservative band of device rows it may paint. Rows are
 * over-estimated on purpose: strokes by their miter reach, text by generous ascent, descent and
 * advance, transforms (rotation) through the corners of the bounds, plus anti-aliasing slack.
 * Under-estimating would leave stale pixels; the incremental property test guards this.
 */
import { Path2D } from '@napi-rs/canvas';
import { scaling } from '../layout/geometry.ts';
import type { DrawOp, Matrix } from '../layout/types.ts';

export interface OpFootprint {
  signature: string;
  /** First and last device rows (inclusive) the op may paint. */
  rows: [number, number];
}

type Rect = [left: number, top: number, right: number, bottom: number];

const EMPTY: Rect = [
  Number.POSITIVE_INFINITY,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];
/** Anti-aliasing and rounding slack, in device pixels. */
const SLACK = 3;

function union(a: Rect, b: Rect): Rect {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

function transformRect(m: Matrix, [l, t, r, b]: Rect): Rect {
  if (!Number.isFinite(l)) return EMPTY;
  let out = EMPTY;
  for (const [x, y] of [
    [l, t],
    [r, t],
    [r, b],
    [l, b],
  ] as const) {
    const px = m[0] * x + m[2] * y + m[4];
    const py = m[1] * x + m[3] * y + m[5];
    out = union(out, [px, py, px, py]);
  }
  return out;
}

const grow = ([l, t, r, b]: Rect, by: number): Rect => [l - by, t - by, r + by, b + by];

function fontSize(font: string): number {
  return Number(/([\d.]+)px/.exec(font)?.[1] ?? 0) || 0;
}

/** The op's bounds in its own coordinates (groups: their children's, in the group's parent space). */
function localRect(op: DrawOp): Rect {
  switch (op.op) {
    case 'path': {
      const [l, t, r, b] = new Path2D(op.d).getBounds();
      const reach = op.stroke ? (op.stroke.width / 2) * Math.max(op.stroke.miterLimit, 1.5) : 0;
      return grow([l, t, r, b], reach);
    }
    case 'text': {
      const size = fontSize(op.font);
      const spaces = op.text.split(' ').length - 1;
      const advance =
        op.text.length * (size * 1.5 + Math.abs(op.letterSpacing)) + spaces * Math.abs(op.wordSpacing);
      // Right-to-left runs are placed from x too, but glyph overhangs go either way.
      return [op.x - size - advance, op.y - size * 1.6, op.x + size + advance, op.y + size * 0.8];
    }
    case 'image':
      return [op.x, op.y, op.x + op.width, op.y + op.height];
    case 'group': {
      const m = op.transform;
      let out = EMPTY;
      for (const child of op.children)
        out = union(out, m ? transformRect(m, localRect(child)) : localRect(child));
      return out;
    }
  }
}

export function footprintOf(op: DrawOp, scale: number, imageIds: ReadonlyMap<string, string>): OpFootprint {
  const [, top, , bottom] = transformRect(scaling(scale, scale), localRect(op));
  // An image is named by its content hash alone: its key may be a data URI of megabytes.
  const signature = JSON.stringify(op, (key, value) =>
    key === 'key' && typeof value === 'string' ? `#${imageIds.get(value) ?? value}` : value,
  );
  const rows: [number, number] = Number.isFinite(top)
    ? [Math.floor(top) - SLACK, Math.ceil(bottom) + SLACK]
    : [0, -1];
  return { signature, rows };
}
