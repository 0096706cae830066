/** Drawing one positioned text run: font, paint (colour or gradient), spacing, and its outline. */
import type { TextRunOp } from '../layout/types.ts';
import type { DrawContext } from './context.ts';
import { paintStyle } from './paint.ts';

export function drawText<P, I>(ctx: DrawContext<P, I>, op: TextRunOp, alpha: number): void {
  ctx.globalAlpha = alpha;
  ctx.font = op.font;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.direction = op.direction;
  ctx.letterSpacing = `${op.letterSpacing}px`;
  ctx.wordSpacing = `${op.wordSpacing}px`;
  if (op.stroke) {
    // Under the fill, centred on the glyph edge: the outer half shows, the glyph keeps its shape.
    ctx.strokeStyle = op.stroke.color;
    ctx.lineWidth = op.stroke.width;
    ctx.lineJoin = 'round';
    ctx.setLineDash([]);
    ctx.strokeText(op.text, op.x, op.y);
  }
  ctx.fillStyle = paintStyle(ctx, op.color);
  ctx.fillText(op.text, op.x, op.y);
}
