/**
 * Draws a prepared page onto a Skia 2D context (a raster canvas or a PDF page alike), with the
 * smoothing settings both backends use and the extent effects' layers are bounded by, turning a drawing failure into a RenderError naming the
 * element.
 */
import type { Path2D, SKRSContext2D } from '@napi-rs/canvas';
import { DrawFailure, drawOps } from '../draw/index.ts';
import { elementFailure } from '../errors.ts';
import type { Drawable } from './images.ts';
import type { PreparedPage } from './prepare.ts';

/**
 * `target`: the drawing's extent in the context's device space, and layer pixels per device unit
 * (effects' layers never cover more than the target, plus an effect's reach).
 */
export interface DrawTarget {
  width: number;
  height: number;
  layerScale: number;
}

export function drawPreparedPage(
  ctx: SKRSContext2D,
  prepared: PreparedPage,
  pageId: string,
  target: DrawTarget,
): void {
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.lang = 'en';
  const host = {
    ...prepared.host,
    viewport: { width: target.width, height: target.height },
    layerScale: target.layerScale,
  };
  try {
    drawOps<Path2D, Drawable>(ctx, prepared.layout.ops, host);
  } catch (error) {
    if (error instanceof DrawFailure) throw elementFailure(pageId, error.elementId, error.reason);
    throw error;
  }
}
