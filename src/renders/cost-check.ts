/**
 * The cost a render would have, checked on the modified document before any credit is charged,
 * by the engine's one rule (src/engine/cost-limits.ts; for a video also its frame rate, length,
 * frames × pixels, moving effects and sounds). Over a bound is the request's fault: 400
 * VALIDATION_FAILED naming the page, the element or the option, never a render that runs long.
 *
 * A video has one more bound here, the service's own: what a caller may wait for. A render the
 * request waits for has the synchronous time limit (PLATEN_RENDER_TIMEOUT_MS); a video may take up
 * to PLATEN_VIDEO_TIMEOUT_MS, and the engine's frames × pixels budget is what fits in a video's
 * time. So a synchronous video may use the share of the budget that the synchronous limit is of
 * the video limit; a larger one is refused, saying to send `async: true` (background renders, and
 * batches, get the whole budget).
 */
import { AppError, formatIssuePath } from '../core/errors.ts';
import { type DesignDocument, frameCount, type Page, scenesOf } from '../design/index.ts';
import { videoFrameSize } from '../engine/cost-limits.ts';
import { renderCostProblem, renderLimits } from '../engine/index.ts';
import type { Selection } from './selection.ts';

type Chosen = Pick<Selection, 'pageIds' | 'format' | 'scale' | 'fps'>;

const pagesOf = (document: DesignDocument, pageIds: readonly string[]): Page[] =>
  pageIds.flatMap((id) => document.pages.filter((page) => page.id === id));

export function checkRenderCost(document: DesignDocument, chosen: Chosen): void {
  const pages = pagesOf(document, chosen.pageIds);
  const problem = renderCostProblem(pages, chosen.format, chosen.scale, {
    ...(chosen.fps ? { fps: chosen.fps } : {}),
    audio: document.audio,
  });
  if (!problem) return;
  const index = document.pages.findIndex((page) => page.id === problem.pageId);
  const path = problem.option
    ? problem.option
    : problem.documentPath
      ? formatIssuePath(problem.documentPath)
      : formatIssuePath(['pages', index, ...problem.path]);
  throw new AppError('VALIDATION_FAILED', 'This render would cost too much to draw.', [
    { path, message: problem.message },
  ]);
}

/** A video's size as the engine encodes it: frames of the first page's size at `scale`. */
export interface VideoSize {
  durationMs: number;
  frames: number;
  width: number;
  height: number;
}

export function videoSize(
  pages: readonly Page[],
  chosen: Pick<Selection, 'format' | 'scale' | 'fps'>,
): VideoSize {
  const { durationMs } = scenesOf(pages);
  const first = pages[0];
  const [width, height] = first ? videoFrameSize(first, chosen.format, chosen.scale) : [0, 0];
  return { durationMs, frames: frameCount(durationMs, chosen.fps), width, height };
}

/** Frames × pixels a render the caller waits for may encode: the synchronous limit's share of the budget. */
export function synchronousVideoBudget(
  format: Selection['format'],
  limits: { timeoutMs: number; videoTimeoutMs: number },
): number {
  const budget = format === 'gif' ? renderLimits.maxGifFramePixels : renderLimits.maxVideoFramePixels;
  const share = Math.min(1, limits.timeoutMs / Math.max(1, limits.videoTimeoutMs));
  return Math.floor(budget * share);
}

export function checkSynchronousVideo(
  document: DesignDocument,
  chosen: Chosen,
  limits: { timeoutMs: number; videoTimeoutMs: number },
): void {
  const size = videoSize(pagesOf(document, chosen.pageIds), chosen);
  const budget = synchronousVideoBudget(chosen.format, limits);
  const work = size.frames * size.width * size.height;
  if (work <= budget) return;
  const megapixels = (pixels: number) => Number((pixels / 1e6).toFixed(1));
  throw new AppError(
    'VALIDATION_FAILED',
    'This video is too large to render while the request waits: send `async: true` to render it in the background.',
    [
      {
        path: 'async',
        message:
          `${size.frames} frames of ${size.width}×${size.height} pixels are ${megapixels(work)} megapixels ` +
          `to encode; a render the request waits for may encode ${megapixels(budget)}: send async: true`,
      },
    ],
  );
}
