/** A draw-op paint (a colour or a gradient) as a Canvas fill or stroke style. */
import type { Paint } from '../layout/types.ts';
import type { DrawContext, GradientLike } from './context.ts';

export function paintStyle<P, I>(ctx: DrawContext<P, I>, paint: Paint): string | GradientLike {
  if (typeof paint === 'string') return paint;
  const gradient =
    paint.kind === 'linear'
      ? ctx.createLinearGradient(paint.x0, paint.y0, paint.x1, paint.y1)
      : ctx.createRadialGradient(paint.fx, paint.fy, 0, paint.cx, paint.cy, paint.r);
  for (const stop of paint.stops) gradient.addColorStop(stop.offset, stop.color);
  return gradient;
}
