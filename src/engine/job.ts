/**
 * Job checks done before any work: page ids, scale, quality, format, and the size limits
 * (page sides, output pixels, element counts; for videos frame rate, length and frames × pixels),
 * each refused with a RenderError saying why.
 */
import type { Page } from '../design/index.ts';
import { renderCostProblem, videoFps } from './cost-limits.ts';
import { RenderError } from './errors.ts';
import { renderLimits } from './limits.ts';
import { isVideoFormat, type MediaInfo, type RenderJob } from './types.ts';

export interface CheckedJob {
  pages: Page[];
  scale: number;
  quality: number;
  /** Video formats: frames per second (the job's, or 30; GIF 15). */
  fps: number;
}

/** Quality of JPEG, WebP and PDF images when the job gives none. */
export const DEFAULT_STILL_QUALITY = 90;
/** Quality of MP4, WebM and GIF when the job gives none (x264's own default CRF 23: video/encode.ts). */
export const DEFAULT_VIDEO_QUALITY = 75;

/** The probe of a played asset (`asset:<id>`) as the job carries it. */
export function jobMedia(job: Pick<RenderJob, 'assets'>): (src: string) => MediaInfo | undefined {
  return (src) => (src.startsWith('asset:') ? job.assets[src.slice('asset:'.length)]?.media : undefined);
}

function refuse(message: string, reason: string, pageId?: string): never {
  throw new RenderError(message, { reason, ...(pageId ? { pageId } : {}) });
}

function checkPage(page: Page, scale: number): void {
  const side = Math.max(page.width, page.height);
  if (side > renderLimits.maxPageSide) {
    refuse(
      `Page '${page.id}' is larger than ${renderLimits.maxPageSide} units a side.`,
      'page too large',
      page.id,
    );
  }
  const pixels = Math.round(page.width * scale) * Math.round(page.height * scale);
  if (pixels > renderLimits.maxPixels) {
    refuse(
      `Page '${page.id}' would be ${(pixels / 1e6).toFixed(1)} megapixels; the limit is ${renderLimits.maxPixels / 1e6}.`,
      'too many pixels',
      page.id,
    );
  }
}

export function checkJob(job: RenderJob): CheckedJob {
  const scale = job.format === 'pdf' ? 1 : (job.scale ?? 1);
  if (!Number.isFinite(scale) || scale < renderLimits.minScale || scale > renderLimits.maxScale) {
    refuse(`Scale must be between ${renderLimits.minScale} and ${renderLimits.maxScale}.`, 'invalid scale');
  }
  const video = isVideoFormat(job.format);
  const quality = job.quality ?? (video ? DEFAULT_VIDEO_QUALITY : DEFAULT_STILL_QUALITY);
  if (!Number.isInteger(quality) || quality < 1 || quality > 100)
    refuse('Quality must be 1-100.', 'invalid quality');
  if (!video && !['png', 'jpeg', 'webp', 'pdf'].includes(job.format))
    refuse(`Unknown format '${job.format}'.`, 'invalid format');
  if (job.timeMs !== undefined && !(Number.isFinite(job.timeMs) && job.timeMs >= 0))
    refuse('timeMs must be a time of 0 ms or more.', 'invalid time');
  if (job.pageIds.length === 0) refuse('No page to render.', 'no pages');
  if (job.pageIds.length > renderLimits.maxPages) refuse('Too many pages in one render.', 'too many pages');
  const pages = job.pageIds.map((id) => {
    const page = job.document.pages.find((candidate) => candidate.id === id);
    if (!page) refuse(`Page '${id}' does not exist.`, 'unknown page', id);
    return page;
  });
  for (const page of pages) checkPage(page, scale);
  // Counted before any work: nested elements, spans, effects, barcodes, and for a video its
  // frames, length and sounds (src/engine/cost-limits.ts).
  const problem = renderCostProblem(pages, job.format, scale, {
    fps: job.fps,
    audio: job.document.audio,
    media: jobMedia(job),
  });
  if (problem) {
    const whole = problem.option !== undefined || problem.documentPath !== undefined;
    const message = whole
      ? `${problem.message.charAt(0).toUpperCase()}${problem.message.slice(1)}.`
      : `Page '${problem.pageId}': ${problem.message}.`;
    refuse(message, problem.reason, whole ? undefined : problem.pageId);
  }
  return { pages, scale, quality, fps: videoFps(job.format, job.fps) };
}
