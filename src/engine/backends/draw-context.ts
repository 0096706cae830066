/**
 * Draws a prepared page onto a Skia 2D context (a raster canvas or a PDF page alike), with the
 * smoothing settings both backends use, turning a drawing failure into a RenderError naming the
 * element.
 */
import type { Path2D, SKRSContext2D } from '@napi-rs/canvas';
import { DrawFailure, drawOps } from '../draw/index.ts';
import { elementFailure } from '../errors.ts';
import type { Drawable } from './images.ts';
import type { PreparedPage } from './prepare.ts';

export function drawPreparedPage(ctx: SKRSContext2D, prepared: PreparedPage, pageId: string): void {
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.lang = 'en';
  try {
    drawOps<Path2D, Drawable>(ctx, prepared.layout.ops, prepared.host);
  } catch (error) {
    if (error instanceof DrawFailure) throw elementFailure(pageId, error.elementId, error.reason);
    throw error;
  }
}
