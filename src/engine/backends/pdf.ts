/**
 * PDF backend: one PDF page per design page through Skia's PDF document, so text stays real,
 * selectable text with embedded font subsets and shapes stay vector. JPEG photos are embedded as
 * they are, or from a cached downscaled encoding (pdf-images.ts); other images are embedded by
 * Skia (JPEG-compressed at the job's quality when opaque); rasterised SVGs use
 * renderLimits.pdfRasterScale.
 */
import { PDFDocument, type SKRSContext2D } from '@napi-rs/canvas';
import { renderLimits } from '../limits.ts';
import { drawPreparedPage } from './draw-context.ts';
import { PdfImageSwap } from './pdf-images.ts';
import type { PreparedPage } from './prepare.ts';

export interface PdfPage {
  pageId: string;
  prepared: PreparedPage;
}

export async function renderPdf(pages: readonly PdfPage[], quality: number): Promise<Uint8Array> {
  const doc = new PDFDocument({ creator: 'Platen', producer: 'Platen', encodingQuality: quality });
  const swap = new PdfImageSwap(quality);
  for (const { pageId, prepared } of pages) {
    const { host } = prepared;
    const swapping: PreparedPage = {
      ...prepared,
      host: {
        ...host,
        image: (key, width, height) =>
          swap.placeholderFor(prepared.images.get(key), width, height) ?? host.image(key, width, height),
      },
    };
    // The typings omit drawImage from the PDF page context; at run time it is the full 2D context.
    const ctx = doc.beginPage(prepared.layout.width, prepared.layout.height) as unknown as SKRSContext2D;
    try {
      // A PDF page's device space is points; effects' layers are pixels at the PDF raster scale.
      drawPreparedPage(ctx, swapping, pageId, {
        width: prepared.layout.width,
        height: prepared.layout.height,
        layerScale: renderLimits.pdfRasterScale,
      });
    } finally {
      doc.endPage();
    }
  }
  return swap.apply(doc.close());
}
