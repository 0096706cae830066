/**
 * PDF backend: one PDF page per design page through Skia's PDF document, so text stays real,
 * selectable text with embedded font subsets and shapes stay vector. Images are embedded by Skia
 * (JPEG-compressed at the job's quality when opaque); rasterised SVGs use renderLimits.pdfRasterScale.
 */
import { PDFDocument, type SKRSContext2D } from '@napi-rs/canvas';
import { drawPreparedPage } from './draw-context.ts';
import type { PreparedPage } from './prepare.ts';

export interface PdfPage {
  pageId: string;
  prepared: PreparedPage;
}

export function renderPdf(pages: readonly PdfPage[], quality: number): Uint8Array {
  const doc = new PDFDocument({ creator: 'Platen', producer: 'Platen', encodingQuality: quality });
  for (const { pageId, prepared } of pages) {
    // The typings omit drawImage from the PDF page context; at run time it is the full 2D context.
    const ctx = doc.beginPage(prepared.layout.width, prepared.layout.height) as unknown as SKRSContext2D;
    try {
      drawPreparedPage(ctx, prepared, pageId);
    } finally {
      doc.endPage();
    }
  }
  return doc.close();
}
