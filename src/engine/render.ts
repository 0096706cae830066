/**
 * Renders a job in the current thread: the code every worker runs, and what the CLI and tests
 * call directly. Checks limits, registers fonts, then per page loads images, lays out, draws
 * and encodes. Anything that is the document's fault surfaces as a RenderError.
 */
import type { Page } from '../design/index.ts';
import { mediaSources, pageAtTime, stillTimeMs } from '../design/index.ts';
import type { FetchPolicy } from '../outbound/index.ts';
import { fontCatalogFor } from './backends/fonts.ts';
import type { SourceContext } from './backends/image-sources.ts';
import { renderPdf } from './backends/pdf.ts';
import { type PreparedPage, preparePage, prescaleImages } from './backends/prepare.ts';
import { renderRasterPage } from './backends/raster.ts';
import { RenderError } from './errors.ts';
import { type CheckedJob, checkJob } from './job.ts';
import { renderLimits } from './limits.ts';
import { type PreflightJob, preflightInProcess } from './preflight/index.ts';
import { isVideoFormat, MIME_TYPES, type RenderedFile, type RenderJob } from './types.ts';
import { ClipFrames } from './video/clips.ts';
import { MediaCatalog } from './video/media.ts';
import { renderVideo } from './video/render-video.ts';
import { ScratchDir } from './video/scratch.ts';

export interface RenderOptions {
  /** Test seam for hostile-URL tests: parts of the image fetch policy (see FetchPolicy). */
  fetchPolicy?: Partial<FetchPolicy>;
  /** Video formats, a test and bench seam: false draws every frame whole (see video/scene.ts). */
  reuseFrames?: boolean;
  onLeadingBytes?: LeadingBytes;
}

/**
 * Told the bytes a file of the answer (by its index) will start with, before the file is finished:
 * an incremental JPEG or PNG knows its header and unchanged strips above the first change before
 * it encodes the changed ones. A render process writes and syncs them meanwhile, so the disk has
 * less left to sync once the file is whole (pool/staged-writes.ts). The finished file's bytes
 * start with them.
 */
export type LeadingBytes = (file: number, bytes: Buffer) => void;

export async function renderInProcess(job: RenderJob, options: RenderOptions = {}): Promise<RenderedFile[]> {
  if (job.preflight) return [await preflightFile(job, job.preflight)];
  const checked = checkJob(job);
  // Motion: the video pipeline (src/engine/video/) takes the whole job.
  if (isVideoFormat(job.format))
    return renderVideo(job, checked, {
      ...(options.fetchPolicy ? { fetchPolicy: options.fetchPolicy } : {}),
      ...(options.reuseFrames !== undefined ? { reuse: options.reuseFrames } : {}),
    });
  // Video elements show one decoded frame each; their assets are files while the render lasts.
  const played = mediaSources({ pages: checked.pages });
  const scratch = played.length > 0 ? new ScratchDir(job.assets) : null;
  const clips = scratch ? new ClipFrames(new MediaCatalog(job.assets, scratch), scratch, false) : null;
  try {
    return await renderStills(job, checked, options, clips);
  } finally {
    await scratch?.dispose();
  }
}

/** A preflight's answer as the one file a job answers, so the pool carries it like any render. */
async function preflightFile(job: RenderJob, preflight: PreflightJob): Promise<RenderedFile> {
  const answer = await preflightInProcess(job, preflight);
  return {
    bytes: new TextEncoder().encode(JSON.stringify(answer)),
    width: 0,
    height: 0,
    mimeType: 'application/json',
    pageIds: job.pageIds,
  };
}

async function renderStills(
  job: RenderJob,
  checked: CheckedJob,
  options: RenderOptions,
  clips: ClipFrames | null,
): Promise<RenderedFile[]> {
  const { scale, quality } = checked;
  // A clip that loops wraps at its length: known before its time is computed.
  for (const src of mediaSources({ pages: checked.pages }))
    await clips?.clipSize(src.slice('asset:'.length)).catch(() => {});
  const mediaDurationMs = clips?.durationMs;
  // A still of an animated page is its state at `timeMs`, by default once every `in` animation ended.
  const timed = checked.pages.map((page) =>
    pageAtTime(page, job.timeMs ?? stillTimeMs(page), mediaDurationMs ? { mediaDurationMs } : {}),
  );
  const pages = timed.map((t) => t.page);
  const scalesOf = (index: number) => timed[index]?.scales;
  const fonts = fontCatalogFor(job.workspaceId, job.fonts);
  const context: SourceContext = {
    assets: job.assets,
    allowPrivateUrls: job.allowPrivateUrls ?? false,
    ...(options.fetchPolicy ? { fetchPolicy: options.fetchPolicy } : {}),
    ...(clips ? { videoFrames: clips } : {}),
  };
  if (job.format === 'pdf') {
    const prepared = [];
    for (const [index, page] of pages.entries()) {
      prepared.push({
        pageId: page.id,
        prepared: await preparePage(page, fonts, context, renderLimits.pdfRasterScale, scalesOf(index)),
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
  if (isVideoFormat(format))
    throw new RenderError(`Format '${format}' is not a still.`, { reason: 'invalid format' });
  // Each page's images are decoded and scaled (on libvips's threads) while the page before it is
  // drawn and encoded.
  const prepareRaster = async (index: number) => {
    const prepared = await preparePage(pages[index] as Page, fonts, context, scale, scalesOf(index));
    await prescaleImages(prepared);
    return prepared;
  };
  const files: RenderedFile[] = [];
  let next = pages.length > 0 ? prepareRaster(0) : null;
  for (const [index, page] of pages.entries()) {
    const prepared = await (next as Promise<PreparedPage>);
    next = index + 1 < pages.length ? prepareRaster(index + 1) : null;
    // A failure of this page ends the render before the next page's preparation is awaited.
    next?.catch(() => {});
    // The fonts are part of the key: a font uploaded under a family already in use changes glyphs
    // that no op's data shows.
    const fontIds = job.fonts.map((font) => font.assetId).join(',');
    const baseKey = job.cacheKey
      ? `${job.workspaceId}\u0000${job.cacheKey}\u0000${page.id}\u0000${fontIds}`
      : undefined;
    const file = files.length;
    const onLeadingBytes = options.onLeadingBytes;
    const image = await renderRasterPage(prepared, page.id, {
      format,
      scale,
      quality,
      ...(baseKey ? { baseKey } : {}),
      ...(onLeadingBytes ? { onLeadingBytes: (bytes: Buffer) => onLeadingBytes(file, bytes) } : {}),
    });
    files.push({ ...image, pageIds: [page.id] });
  }
  return files;
}
