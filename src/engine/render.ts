/**
 * Renders a job in the current thread: the code every worker runs, and what the CLI and tests
 * call directly. Checks limits, registers fonts, then per page loads images, lays out, draws
 * and encodes. Anything that is the document's fault surfaces as a RenderError.
 */
import type { DesignDocument, Page } from '../design/index.ts';
import { assetIdOf } from '../design/index.ts';
import type { FetchPolicy } from '../outbound/index.ts';
import { fontCatalogFor } from './backends/fonts.ts';
import type { SourceContext } from './backends/image-sources.ts';
import { renderPdf } from './backends/pdf.ts';
import { preparePage } from './backends/prepare.ts';
import { renderRasterPage } from './backends/raster.ts';
import { checkJob } from './job.ts';
import { renderLimits } from './limits.ts';
import { MIME_TYPES, type RenderedFile, type RenderJob } from './types.ts';

export interface RenderOptions {
  /** Test seam for hostile-URL tests: parts of the image fetch policy (see FetchPolicy). */
  fetchPolicy?: Partial<FetchPolicy>;
}

export async function renderInProcess(job: RenderJob, options: RenderOptions = {}): Promise<RenderedFile[]> {
  const { pages, scale, quality } = checkJob(job);
  const fonts = fontCatalogFor(job.workspaceId, job.fonts);
  const context: SourceContext = {
    assets: job.assets,
    allowPrivateUrls: job.allowPrivateUrls ?? false,
    ...(options.fetchPolicy ? { fetchPolicy: options.fetchPolicy } : {}),
  };
  if (job.format === 'pdf') {
    const prepared = [];
    for (const page of pages) {
      prepared.push({
        pageId: page.id,
        prepared: await preparePage(page, fonts, context, renderLimits.pdfRasterScale),
      });
    }
    const first = pages[0] as Page;
    const bytes = await renderPdf(prepared, quality);
    return [
      {
        bytes,
        width: first.width,
        height: first.height,
        mimeType: MIME_TYPES.pdf,
        pageIds: pages.map((p) => p.id),
      },
    ];
  }
  const format = job.format;
  const files: RenderedFile[] = [];
  for (const page of pages) {
    const prepared = await preparePage(page, fonts, context, scale);
    // The fonts are part of the key: a font uploaded under a family already in use changes glyphs
    // that no op's data shows.
    const fontIds = job.fonts.map((font) => font.assetId).join(',');
    const baseKey = job.cacheKey
      ? `${job.workspaceId}\u0000${job.cacheKey}\u0000${page.id}\u0000${fontIds}`
      : undefined;
    const image = await renderRasterPage(prepared, page.id, {
      format,
      scale,
      quality,
      ...(baseKey ? { baseKey } : {}),
    });
    files.push({ ...image, pageIds: [page.id] });
  }
  return files;
}

/** Asset ids the document's images use (backgrounds and image elements), each once, in order. */
export function assetIdsReferenced(doc: DesignDocument): string[] {
  const ids = new Set<string>();
  for (const page of doc.pages) {
    const sources = [typeof page.background === 'string' ? null : page.background.src];
    for (const element of page.elements) if (element.type === 'image') sources.push(element.src);
    for (const src of sources) {
      const id = src === null ? null : assetIdOf(src);
      if (id) ids.add(id);
    }
  }
  return [...ids];
}
