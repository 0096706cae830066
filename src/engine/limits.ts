/**
 * What one render may cost (docs/configuration.md, limits): output pixels, page sides, element counts,
 * source image size, and the PDF rasterisation resolution. Checked before any drawing starts.
 */
import { defaultDesignLimits } from '../design/index.ts';

export const renderLimits = {
  /** Output pixels of one page after scale (raster), or of the page at 1 unit = 1 px (PDF). */
  maxPixels: 50_000_000,
  maxPageSide: defaultDesignLimits.maxPageSide,
  /** A hard stop well above the validated 500 per page, for callers that skip validation. */
  maxElementsPerPage: 10_000,
  maxPages: 1_000,
  /** Decoded pixels of one source image (an image bomb is refused before decoding). */
  maxSourcePixels: 60_000_000,
  /**
   * Down to 1/100 for thumbnails (a 10,000-unit page into a 320 px box is 0.032). The public render
   * API keeps its own 1-4 in its request schema.
   */
  minScale: 0.01,
  maxScale: 4,
  /** Resolution at which PDF rasterises what cannot stay vector (2 × 72 = 144 dpi). */
  pdfRasterScale: 2,
} as const;
