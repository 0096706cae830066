/** The render job and its outputs: what callers hand the renderer and what they get back. */
import type { DesignDocument } from '../design/index.ts';

export type OutputFormat = 'png' | 'jpeg' | 'webp' | 'pdf';

export interface JobAsset {
  bytes: Uint8Array;
  mimeType: string;
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
  /** JPEG/WebP quality, 1-100 (default 90). */
  quality?: number;
  workspaceId: string;
  /** Images referenced as `asset:<id>`. */
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
}

export interface RenderedFile {
  bytes: Uint8Array;
  /** Pixels for raster; points of the first page for PDF. */
  width: number;
  height: number;
  mimeType: string;
  pageIds: string[];
}

export const MIME_TYPES: Record<OutputFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
};
