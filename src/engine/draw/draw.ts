/**
 * The drawing step: replays layout's draw operations onto any Canvas 2D context. Pure apart from
 * the context it is handed; the host builds paths and supplies decoded images.
 */
import type { DrawOp, GroupOp, ImageOp, Paint, PathOp, TextRunOp } from '../layout/types.ts';
import type { DrawContext, DrawHost, GradientLike } from './context.ts';

export class DrawFailure extends Error {
  constructor(
    readonly reason: string,
    readonly elementId?: string,
  ) {
    super(reason);
    this.name = 'DrawFailure';
  }
}

type Ctx<P, I> = DrawContext<P, I>;

function paintStyle<P, I>(ctx: Ctx<P, I>, paint: Paint): string | GradientLike {
  if (typeof paint === 'string') return paint;
  const gradient =
    paint.kind === 'linear'
      ? ctx.createLinearGradient(paint.x0, paint.y0, paint.x1, paint.y1)
      : ctx.createRadialGradient(paint.fx, paint.fy, 0, paint.cx, paint.cy, paint.r);
  for (const stop of paint.stops) gradient.addColorStop(stop.offset, stop.color);
  return gradient;
}

function drawPath<P, I>(ctx: Ctx<P, I>, op: PathOp, host: DrawHost<P, I>, alpha: number): void {
  const path = host.createPath(op.d);
  if (op.fill) {
    ctx.globalAlpha = alpha * op.fill.alpha;
    ctx.fillStyle = paintStyle(ctx, op.fill.paint);
    ctx.fill(path, op.fill.rule);
  }
  if (op.stroke) {
    const stroke = op.stroke;
    ctx.globalAlpha = alpha * stroke.alpha;
    ctx.strokeStyle = paintStyle(ctx, stroke.paint);
    ctx.lineWidth = stroke.width;
    ctx.lineCap = stroke.cap;
    ctx.lineJoin = stroke.join;
    ctx.miterLimit = stroke.miterLimit;
    ctx.setLineDash(stroke.dash);
    ctx.lineDashOffset = stroke.dashOffset;
    ctx.stroke(path);
    ctx.setLineDash([]);
  }
}

function drawText<P, I>(ctx: Ctx<P, I>, op: TextRunOp, alpha: number): void {
  ctx.globalAlpha = alpha;
  ctx.font = op.font;
  ctx.fillStyle = op.color;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.direction = op.direction;
  ctx.letterSpacing = `${op.letterSpacing}px`;
  ctx.wordSpacing = `${op.wordSpacing}px`;
  ctx.fillText(op.text, op.x, op.y);
}

function drawImage<P, I>(
  ctx: Ctx<P, I>,
  op: ImageOp,
  host: DrawHost<P, I>,
  alpha: number,
  elementId?: string,
): void {
  const image = host.image(op.key, op.deviceWidth, op.deviceHeight);
  if (image === undefined) throw new DrawFailure('image was not loaded', elementId);
  ctx.globalAlpha = alpha;
  if (!op.clip) {
    ctx.drawImage(image, op.x, op.y, op.width, op.height);
    return;
  }
  ctx.save();
  ctx.clip(host.createPath(op.clip));
  ctx.drawImage(image, op.x, op.y, op.width, op.height);
  ctx.restore();
}

function drawGroup<P, I>(
  ctx: Ctx<P, I>,
  op: GroupOp,
  host: DrawHost<P, I>,
  alpha: number,
  elementId?: string,
): void {
  ctx.save();
  if (op.transform) ctx.transform(...op.transform);
  if (op.clip) ctx.clip(host.createPath(op.clip));
  const inner = alpha * op.opacity;
  for (const child of op.children) drawOp(ctx, child, host, inner, op.elementId ?? elementId);
  ctx.restore();
}

function drawOp<P, I>(
  ctx: Ctx<P, I>,
  op: DrawOp,
  host: DrawHost<P, I>,
  alpha: number,
  elementId?: string,
): void {
  if (op.op === 'group') drawGroup(ctx, op, host, alpha, elementId);
  else if (op.op === 'path') drawPath(ctx, op, host, alpha);
  else if (op.op === 'text') drawText(ctx, op, alpha);
  else drawImage(ctx, op, host, alpha, elementId);
}

/** Draws the ops in order; the context's state is restored afterwards. */
export function drawOps<P, I>(ctx: DrawContext<P, I>, ops: readonly DrawOp[], host: DrawHost<P, I>): void {
  ctx.save();
  try {
    for (const op of ops) drawOp(ctx, op, host, 1);
  } finally {
    ctx.restore();
  }
}
