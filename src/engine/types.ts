/** The render job and its outputs: what callers hand the renderer and what they get back. */
import type { DesignDocument } from '../design/index.ts';
import type { PreflightJob } from './preflight/index.ts';

export type StillFormat = 'png' | 'jpeg' | 'webp' | 'pdf';
/** Motion (docs/design-document.md, "Motion"): one video file of the pages as scenes. */
export type VideoFormat = 'mp4' | 'webm' | 'gif';
export type OutputFormat = StillFormat | VideoFormat;
export const VIDEO_FORMATS: readonly VideoFormat[] = ['mp4', 'webm', 'gif'];
export const isVideoFormat = (format: string): format is VideoFormat =>
  (VIDEO_FORMATS as readonly string[]).includes(format);

export interface JobAsset {
  bytes: Uint8Array;
  mimeType: string;
  /** Video and audio assets (motion): what the upload's probe found, checked at upload. */
  media?: MediaInfo;
}

/** A probed video or audio asset (src/assets: sniffed by bytes, probed with ffprobe at upload). */
export interface MediaInfo {
  durationMs: number;
  /** Video streams only. */
  width?: number;
  height?: number;
  hasVideo: boolean;
  hasAudio: boolean;
}

export interface JobFont {
  family: string;
  bytes: Uint8Array;
  assetId: string;
}

export interface RenderJob {
  /** Already modified and validated. */
  document: DesignDocument;
  /** Pages to render, in order. */
  pageIds: string[];
  /** pdf → one file holding every page; raster → one file per page. */
  format: OutputFormat;
  /** Raster scale, 1-4 (default 1). */
  scale?: number;
  /** JPEG/WebP quality, 1-100 (default 90); for video formats, the encoder's quality (1-100). */
  quality?: number;
  /**
   * Still formats: the time into each page whose state is drawn (default: when every `in`
   * animation has ended, design/timeline.ts `stillTimeMs`).
   */
  timeMs?: number;
  /** Video formats: frames per second, 1-60 (default 30; GIF 15). */
  fps?: number;
  /** Video formats, GIF: dither the palette (default true). */
  dither?: boolean;
  workspaceId: string;
  /** Images referenced as `asset:<id>`; for video formats also the video and audio assets played. */
  assets: Record<string, JobAsset>;
  /** The workspace's uploaded fonts. */
  fonts: JobFont[];
  /** PLATEN_ALLOW_PRIVATE_URLS: image fetches may reach private and loopback addresses. */
  allowPrivateUrls?: boolean;
  /**
   * Renders of one template: a render process keeps each page's last JPEG/PNG output per key and
   * settings as the base of the next, re-encoding only what changed (backends/striped.ts).
   */
  cacheKey?: string;
  /**
   * Check the document instead of drawing it (src/engine/preflight): the answer is one JSON file
   * holding a PreflightAnswer.
   */
  preflight?: PreflightJob;
}

export interface RenderedFile {
  bytes: Uint8Array;
  /** Pixels for raster; points of the first page for PDF. */
  width: number;
  height: number;
  mimeType: string;
  pageIds: string[];
  /** Video formats: the video's length and its frame count. */
  durationMs?: number;
  frames?: number;
}

/**
 * A file the render process wrote into the directory `RenderPool.renderStaged` named, and synced to
 * disk, instead of sending its bytes back: the caller moves it into place (a rename), so a large
 * PNG or video is neither piped between processes nor copied in the service's memory.
 */
export type StagedFile = Omit<RenderedFile, 'bytes'> & { path: string; byteLength: number };

export const MIME_TYPES: Record<OutputFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  gif: 'image/gif',
};
