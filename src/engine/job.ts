/**
 * Job checks done before any work: page ids, scale, quality, format, and the size limits
 * (page sides, output pixels, element counts), each refused with a RenderError saying why.
 */
import type { Page } from '../design/index.ts';
import { RenderError } from './errors.ts';
import { renderLimits } from './limits.ts';
import type { RenderJob } from './types.ts';

export interface CheckedJob {
  pages: Page[];
  scale: number;
  quality: number;
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
  if (page.elements.length > renderLimits.maxElementsPerPage) {
    refuse(
      `Page '${page.id}' has more than ${renderLimits.maxElementsPerPage} elements.`,
      'too many elements',
      page.id,
    );
  }
}

export function checkJob(job: RenderJob): CheckedJob {
  const scale = job.format === 'pdf' ? 1 : (job.scale ?? 1);
  if (!Number.isFinite(scale) || scale < renderLimits.minScale || scale > renderLimits.maxScale) {
    refuse(`Scale must be between ${renderLimits.minScale} and ${renderLimits.maxScale}.`, 'invalid scale');
  }
  const quality = job.quality ?? 90;
  if (!Number.isInteger(quality) || quality < 1 || quality > 100)
    refuse('Quality must be 1-100.', 'invalid quality');
  if (!['png', 'jpeg', 'webp', 'pdf'].includes(job.format))
    refuse(`Unknown format '${job.format}'.`, 'invalid format');
  if (job.pageIds.length === 0) refuse('No page to render.', 'no pages');
  if (job.pageIds.length > renderLimits.maxPages) refuse('Too many pages in one render.', 'too many pages');
  const pages = job.pageIds.map((id) => {
    const page = job.document.pages.find((candidate) => candidate.id === id);
    if (!page) refuse(`Page '${id}' does not exist.`, 'unknown page', id);
    return page;
  });
  for (const page of pages) checkPage(page, scale);
  return { pages, scale, quality };
}
