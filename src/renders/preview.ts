/**
 * Free previews (docs/api.md#previews): a small, watermarked picture of one page with the
 * modifications applied, for a person or an agent choosing values before a paid render. The
 * watermark is drawn by the engine itself, as a text element on top of the page, with a bundled
 * font: what it costs is bounded like any render (the route takes a token of the render rate
 * limit; the render runs in the pool's killable processes), and nothing is charged or stored.
 */
import { type DesignDocument, textElementSchema } from '../design/index.ts';

/** The longest side of a preview, in pixels. */
export const PREVIEW_BOX = 512;

export const PREVIEW_WATERMARK = 'PREVIEW';

/** The scale that draws a page of `width` × `height` design units at most PREVIEW_BOX pixels long. */
export function previewScale(width: number, height: number): number {
  return Math.min(1, PREVIEW_BOX / Math.max(width, height, 1));
}

/**
 * The document with the watermark on top of `pageId`: the word across the page's middle, turned
 * 30°, grey at 45 % opacity, as wide as the page allows.
 */
export function withWatermark(document: DesignDocument, pageId: string): DesignDocument {
  return {
    ...document,
    pages: document.pages.map((page) => {
      if (page.id !== pageId) return page;
      const side = Math.min(page.width, page.height);
      const fontSize = Math.max(8, Math.round(side / 6));
      const height = fontSize * 1.5;
      // Parsed like any element, so the defaults are the schema's and a change to it is noticed.
      const watermark = textElementSchema.parse({
        id: '__platen_preview_watermark',
        type: 'text',
        x: 0,
        y: (page.height - height) / 2,
        width: page.width,
        height,
        rotation: -30,
        opacity: 0.45,
        text: PREVIEW_WATERMARK,
        fontSize,
        fontWeight: 800,
        color: '#7f7f7f',
        align: 'center',
        verticalAlign: 'middle',
        letterSpacing: Math.round(fontSize * 0.08),
        autoFit: 'shrink',
        maxLines: 1,
        stroke: { color: '#ffffff', width: Math.max(1, Math.round(fontSize / 24)) },
      });
      return { ...page, elements: [...page.elements, watermark] };
    }),
  };
}
