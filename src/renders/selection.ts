/**
 * Which pages and options a render request selects, and the identity that makes renders identical.
 * Defaults are resolved here, once, so the identity names what is rendered: `fps` absent and `fps`
 * 30 make the same video, and an option a format ignores (`fps` of a PNG) is dropped from it.
 */
import { AppError } from '../core/errors.ts';
import type { DesignDocument } from '../design/index.ts';
import { videoFps } from '../engine/cost-limits.ts';
import { DEFAULT_STILL_QUALITY, DEFAULT_VIDEO_QUALITY } from '../engine/job.ts';
import { renderIdentity } from './identity.ts';
import { isVideoRenderFormat, type RenderFormat, type RenderRequest } from './schemas.ts';

export interface Selection {
  allPages: boolean;
  pageIds: string[];
  format: RenderFormat;
  scale: number;
  /** 0 where the format takes no quality (png, pdf). */
  quality: number;
  /** Video formats: frames per second; 0 for stills. */
  fps: number;
  /** GIF: dither the palette; null for other formats. */
  dither: boolean | null;
  /** Stills: the time drawn, when the request gave one (else each page's `stillTimeMs`); null for video. */
  timeMs: number | null;
  fileCount: number;
  identity: string;
}

export interface Plan extends Selection {
  templateId: string;
  document: DesignDocument;
  /** The published version rendered; absent: the draft. */
  version?: number;
}

export interface DraftFacts {
  id: string;
  documentHash: string;
  pageIds?: string[];
  activePageId?: string;
  document?: DesignDocument;
  /** The published version pinned, if any (its content is `documentHash`). */
  version?: number;
}

/** Formats that make one file whatever the number of pages (a PDF, a video); png/jpeg make one a page. */
export const isOneFileFormat = (format: RenderFormat): boolean =>
  format === 'pdf' || isVideoRenderFormat(format);

/** Pages, options and the identity of a request, from what is known of the draft. */
export function select(draft: DraftFacts, request: RenderRequest, assetScope: string | null): Selection {
  const allIds = draft.document ? draft.document.pages.map((p) => p.id) : (draft.pageIds ?? []);
  const activePageId = draft.document ? draft.document.activePageId : (draft.activePageId ?? '');
  const allPages = request.allPages === true;
  const pageId = request.pageId ?? activePageId;
  if (!allPages && !allIds.includes(pageId)) {
    throw new AppError('NOT_FOUND', `The page ${JSON.stringify(pageId)} was not found in this template.`);
  }
  const pageIds = allPages ? allIds : [pageId];
  const format = request.format;
  const video = isVideoRenderFormat(format);
  const scale = format === 'pdf' ? 1 : (request.scale ?? 1);
  // The engine's defaults (30 fps, GIF 15; quality 90 for JPEG, 75 for video), resolved here so
  // the identity names what is drawn.
  const quality =
    format === 'jpeg'
      ? (request.quality ?? DEFAULT_STILL_QUALITY)
      : video
        ? (request.quality ?? DEFAULT_VIDEO_QUALITY)
        : 0;
  const fps = video ? videoFps(format, request.fps) : 0;
  const dither = format === 'gif' ? (request.dither ?? true) : null;
  const timeMs = video ? null : (request.timeMs ?? null);
  const identity = renderIdentity({
    templateId: draft.id,
    assetScope,
    documentHash: draft.documentHash,
    version: draft.version ?? null,
    modifications: request.modifications,
    idempotencyKey: request.idempotencyKey,
    format,
    pageIds,
    allPages,
    scale,
    quality,
    fps,
    dither,
    timeMs,
  });
  return {
    allPages,
    pageIds,
    format,
    scale,
    quality,
    fps,
    dither,
    timeMs,
    identity,
    fileCount: isOneFileFormat(format) ? 1 : pageIds.length,
  };
}
