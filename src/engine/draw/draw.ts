/**
 * The drawing step: replays layout's draw operations onto any Canvas 2D context. Pure apart from
 * the context it is handed; the host builds paths, supplies decoded images and, for effects
 * (shadow, blur, image filters; see effects.ts), offscreen layers.
 */
import type { DrawOp, GroupOp, ImageOp, PathOp } from '../layout/types.ts';
import type { DrawContext, DrawHost } from './context.ts';
import {
  drawFilteredImage,
  drawGroupWithEffects,
  EffectFailure,
  type Surface,
  surfaceFor,
} from './effects.ts';
import { paintStyle } from './paint.ts';
import { drawText } from './text.ts';

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

function drawImage<P, I>(s: Surface<P, I>, op: ImageOp, alpha: number, elementId?: string): void {
  const missing = (): never => {
    throw new DrawFailure('image was not loaded', elementId);
  };
  if (op.filter && s.host.layer) {
    drawFilteredImage(s, op, alpha, missing);
    return;
  }
  const { ctx, host } = s;
  const image = host.image(op.key, op.deviceWidth, op.deviceHeight) ?? missing();
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

/** The group's transform, clip and children, without its effects. */
function drawGroupContent<P, I>(s: Surface<P, I>, op: GroupOp, alpha: number, elementId?: string): void {
  const { ctx, host } = s;
  ctx.save();
  if (op.transform) ctx.transform(...op.transform);
  if (op.clip) ctx.clip(host.createPath(op.clip));
  const inner = alpha * op.opacity;
  for (const child of op.children) drawOp(s, child, inner, elementId);
  ctx.restore();
}

function drawGroup<P, I>(s: Surface<P, I>, op: GroupOp, alpha: number, elementId?: string): void {
  const id = op.elementId ?? elementId;
  const effects = op.effects;
  if (!effects || !(effects.shadow || effects.blur) || !s.host.layer) {
    drawGroupContent(s, op, alpha, id);
    return;
  }
  try {
    drawGroupWithEffects(s, op, (surface) => drawGroupContent(surface, op, alpha, id));
  } catch (error) {
    if (error instanceof EffectFailure) throw new DrawFailure(error.reason, id);
    throw error;
  }
}

function drawOp<P, I>(s: Surface<P, I>, op: DrawOp, alpha: number, elementId?: string): void {
  if (op.op === 'group') drawGroup(s, op, alpha, elementId);
  else if (op.op === 'path') drawPath(s.ctx, op, s.host, alpha);
  else if (op.op === 'text') drawText(s.ctx, op, alpha);
  else if (op.op === 'link') s.ctx.annotateLinkUrl?.(op.x, op.y, op.x + op.width, op.y + op.height, op.url);
  else {
    try {
      drawImage(s, op, alpha, elementId);
    } catch (error) {
      if (error instanceof EffectFailure) throw new DrawFailure(error.reason, elementId);
      throw error;
    }
  }
}

/**
 * Draws the ops in order; the context's state is restored afterwards. The context's transform
 * when called maps page units to its device space (effects scale their lengths by it).
 */
export function drawOps<P, I>(ctx: DrawContext<P, I>, ops: readonly DrawOp[], host: DrawHost<P, I>): void {
  const surface = surfaceFor(ctx, host);
  ctx.save();
  try {
    for (const op of ops) drawOp(surface, op, 1);
  } finally {
    ctx.restore();
  }
}
