/**
 * Conservative bounds of draw ops, in page units: what an op may paint, strokes, text overhangs,
 * image filters and effects (shadow, blur) included. Two users: incremental renders (which rows a
 * change touches, backends/op-bounds.ts, with exact path bounds from Skia) and the drawing step
 * (how large an offscreen layer an effect needs, with the pure path-data bounds below). Both must
 * never under-estimate; over-estimating only costs work.
 */
import type { DrawOp, Matrix } from './types.ts';

/** left, top, right, bottom; empty when left > right. */
export type Rect = readonly [left: number, top: number, right: number, bottom: number];

export const EMPTY_RECT: Rect = [
  Number.POSITIVE_INFINITY,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];
export const UNBOUNDED_RECT: Rect = [
  Number.NEGATIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.POSITIVE_INFINITY,
  Number.POSITIVE_INFINITY,
];

/** How far a Gaussian blur spreads, in standard deviations (99.7 % of its weight). */
export const BLUR_REACH_SIGMAS = 3;

export const isEmptyRect = (r: Rect): boolean => !(r[0] <= r[2] && r[1] <= r[3]);

export function unionRect(a: Rect, b: Rect): Rect {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

export function intersectRect(a: Rect, b: Rect): Rect {
  const r: Rect = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return isEmptyRect(r) ? EMPTY_RECT : r;
}

export function growRect(r: Rect, by: number): Rect {
  return isEmptyRect(r) ? r : [r[0] - by, r[1] - by, r[2] + by, r[3] + by];
}

export function shiftRect(r: Rect, dx: number, dy: number): Rect {
  return isEmptyRect(r) ? r : [r[0] + dx, r[1] + dy, r[2] + dx, r[3] + dy];
}

/** The bounds of `r`'s four corners under `m`. */
export function transformRect(m: Matrix, r: Rect): Rect {
  if (isEmptyRect(r)) return EMPTY_RECT;
  if (!r.every(Number.isFinite)) return UNBOUNDED_RECT;
  let out = EMPTY_RECT;
  for (const [x, y] of [
    [r[0], r[1]],
    [r[2], r[1]],
    [r[2], r[3]],
    [r[0], r[3]],
  ] as const) {
    const px = m[0] * x + m[2] * y + m[4];
    const py = m[1] * x + m[3] * y + m[5];
    out = unionRect(out, [px, py, px, py]);
  }
  return out;
}

const ARGS: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };

/** Reads path data: commands, numbers, and arc flags written without separators ("a1 1 0 01 5 5"). */
function* pathTokens(d: string): Generator<string | number> {
  const re = /\s*,?\s*([MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/y;
  let command = '';
  let arg = 0;
  while (re.lastIndex < d.length) {
    const at = re.lastIndex;
    // Arc flags (arguments 4 and 5 of an arc) are single digits that may run together.
    if (command === 'a' && (arg % 7 === 3 || arg % 7 === 4)) {
      const flag = /\s*,?\s*([01])/y;
      flag.lastIndex = at;
      const m = flag.exec(d);
      if (m) {
        re.lastIndex = flag.lastIndex;
        arg++;
        yield Number(m[1]);
        continue;
      }
    }
    const m = re.exec(d);
    if (!m) {
      if (/^\s*$/.test(d.slice(at))) return;
      throw new Error('unreadable path data');
    }
    const token = m[1] as string;
    if (/[a-z]/i.test(token)) {
      command = token.toLowerCase();
      arg = 0;
      yield token;
    } else {
      arg++;
      yield Number(token);
    }
  }
}

/**
 * Bounds of SVG path data without a canvas: every end and control point (a Bézier stays inside its
 * control points' hull), and for an arc its end points grown by the ellipse's diameter (radii
 * scaled up as SVG does when they are too small). Unreadable data is unbounded.
 */
export function pathDataBounds(d: string): Rect {
  let tokens: (string | number)[];
  try {
    tokens = [...pathTokens(d)];
  } catch {
    return UNBOUNDED_RECT;
  }
  let out = EMPTY_RECT;
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  const add = (px: number, py: number, by = 0) => {
    out = unionRect(out, [px - by, py - by, px + by, py + by]);
  };
  let i = 0;
  let command = '';
  while (i < tokens.length) {
    const token = tokens[i];
    if (typeof token === 'string') {
      command = token;
      i++;
      if (command.toLowerCase() === 'z') {
        x = startX;
        y = startY;
      }
      continue;
    }
    const lower = command.toLowerCase();
    const count = ARGS[lower];
    if (!count) return UNBOUNDED_RECT;
    const args = tokens.slice(i, i + count);
    if (args.length < count || args.some((a) => typeof a !== 'number')) return UNBOUNDED_RECT;
    i += count;
    const n = args as number[];
    const rel = command !== command.toUpperCase();
    const ox = rel ? x : 0;
    const oy = rel ? y : 0;
    if (lower === 'h') x = ox + (n[0] as number);
    else if (lower === 'v') y = oy + (n[0] as number);
    else if (lower === 'a') {
      const [rx, ry, rotation, , , ex, ey] = n as [number, number, number, number, number, number, number];
      const tx = ox + ex;
      const ty = oy + ey;
      const phi = (rotation * Math.PI) / 180;
      const hx = (x - tx) / 2;
      const hy = (y - ty) / 2;
      const x1 = Math.cos(phi) * hx + Math.sin(phi) * hy;
      const y1 = -Math.sin(phi) * hx + Math.cos(phi) * hy;
      const arx = Math.abs(rx);
      const ary = Math.abs(ry);
      const lambda = arx > 0 && ary > 0 ? Math.sqrt((x1 * x1) / (arx * arx) + (y1 * y1) / (ary * ary)) : 0;
      const reach = 2 * Math.max(arx, ary) * Math.max(1, lambda);
      add(x, y, reach);
      add(tx, ty, reach);
      x = tx;
      y = ty;
    } else {
      for (let k = 0; k + 1 < count; k += 2) add(ox + (n[k] as number), oy + (n[k + 1] as number));
      x = ox + (n[count - 2] as number);
      y = oy + (n[count - 1] as number);
    }
    add(x, y);
    if (lower === 'm') {
      startX = x;
      startY = y;
      // Further pairs after a moveto are linetos.
      command = command === 'm' ? 'l' : 'L';
    }
  }
  return out;
}

function fontSize(font: string): number {
  return Number(/([\d.]+)px/.exec(font)?.[1] ?? 0) || 0;
}

/** Device pixels of `blur(Npx)` in a CSS filter string (image filters), 0 without one. */
export function filterBlurPixels(filter: string | undefined): number {
  return Number(/blur\(([\d.]+)px\)/.exec(filter ?? '')?.[1] ?? 0) || 0;
}

export interface BoundsOptions {
  /** Bounds of path data: exact from a canvas library where there is one, else pathDataBounds. */
  pathBounds?: (d: string) => Rect;
  /** Device pixels per page unit that image ops' filter lengths were written in. */
  deviceScale: number;
}

/** What the effects of a group reach beyond its content, `rect` being that content. */
function withEffects(op: Extract<DrawOp, { op: 'group' }>, rect: Rect, pageAxes: boolean): Rect {
  const effects = op.effects;
  if (!effects || isEmptyRect(rect)) return rect;
  const blur = effects.blur ?? 0;
  let out = growRect(rect, BLUR_REACH_SIGMAS * blur);
  const shadow = effects.shadow;
  if (shadow) {
    // The shadow's Gaussian has σ = blur / 2 (see draw/effects.ts), combined with the element's blur.
    const reach = BLUR_REACH_SIGMAS * (shadow.blur / 2 + blur);
    const cast = pageAxes
      ? shiftRect(growRect(rect, reach), shadow.offsetX, shadow.offsetY)
      : // Inside a transformed group, page axes are not this op's axes: any direction.
        growRect(rect, reach + Math.hypot(shadow.offsetX, shadow.offsetY));
    out = unionRect(out, cast);
  }
  return out;
}

/**
 * The op's conservative bounds in its parent's coordinates. `pageAxes`: the parent's axes are the
 * page's (no rotation or flip above), so a shadow offset can be applied exactly.
 */
export function opRect(op: DrawOp, options: BoundsOptions, pageAxes = true): Rect {
  const pathBounds = options.pathBounds ?? pathDataBounds;
  switch (op.op) {
    case 'path': {
      const reach = op.stroke ? (op.stroke.width / 2) * Math.max(op.stroke.miterLimit, 1.5) : 0;
      return growRect(pathBounds(op.d), reach);
    }
    case 'text': {
      const size = fontSize(op.font);
      const spaces = op.text.split(' ').length - 1;
      const advance =
        op.text.length * (size * 1.5 + Math.abs(op.letterSpacing)) + spaces * Math.abs(op.wordSpacing);
      // Right-to-left runs are placed from x too, but glyph overhangs go either way; an outline
      // reaches out by its width (half outside the glyph, doubled for miter joins).
      const stroke = op.stroke?.width ?? 0;
      return [
        op.x - size - advance - stroke,
        op.y - size * 1.6 - stroke,
        op.x + size + advance + stroke,
        op.y + size * 0.8 + stroke,
      ];
    }
    case 'image': {
      const image: Rect = [op.x, op.y, op.x + op.width, op.y + op.height];
      const blur = filterBlurPixels(op.filter) / Math.max(options.deviceScale, 1e-9);
      // A filtered image is composited under its clip, or its own rectangle (draw.ts).
      return intersectRect(growRect(image, BLUR_REACH_SIGMAS * blur), op.clip ? pathBounds(op.clip) : image);
    }
    case 'link':
      return EMPTY_RECT;
    case 'group': {
      const m = op.transform;
      const childAxes = pageAxes && (!m || (m[0] === 1 && m[1] === 0 && m[2] === 0 && m[3] === 1));
      let content = EMPTY_RECT;
      for (const child of op.children) content = unionRect(content, opRect(child, options, childAxes));
      if (op.clip) content = intersectRect(content, pathBounds(op.clip));
      return withEffects(op, m ? transformRect(m, content) : content, pageAxes);
    }
  }
}
