/**
 * New elements for the "add" buttons: centred on the page, sized relative to it, with every
 * default filled by the design core's own schema (so what the editor adds is what the server
 * would store after parsing).
 */
import { type DesignDocument, type Element, elementSchema, type Page } from '../../../src/engine/browser.ts';
import { freshId, usedIds } from './doc-ops.ts';

export type AddableType = 'text' | 'image' | 'rect' | 'ellipse' | 'line' | 'qr' | 'barcode' | 'video';

export interface NewElementOptions {
  /** Image source for an image element; `asset:<id>` of a video asset for a video element. */
  src?: string;
  /** Intrinsic size of the image or video, to keep its aspect ratio. */
  imageSize?: { width: number; height: number };
}

// A neutral grey square drawn from an SVG data URI: a visible stand-in until a picture is chosen.
const PLACEHOLDER_SRC =
  "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><rect width='4' height='4' fill='%23cfd4dc'/></svg>";

function contentFor(type: AddableType, side: number, options: NewElementOptions): Record<string, unknown> {
  switch (type) {
    case 'text':
      return {
        text: 'Your text',
        fontSize: Math.max(12, Math.round(side / 14)),
        width: side * 0.6,
        height: Math.round(side / 14) * 1.6,
      };
    case 'image': {
      const size = options.imageSize;
      const width = side * 0.5;
      const height = size && size.width > 0 ? (width * size.height) / size.width : width;
      return { src: options.src ?? PLACEHOLDER_SRC, width, height };
    }
    case 'rect':
      return { fill: '#4f7cff', width: side * 0.3, height: side * 0.3 };
    case 'ellipse':
      return { fill: '#ff8a4f', width: side * 0.3, height: side * 0.3 };
    case 'line':
      return {
        stroke: '#1d1d35',
        strokeWidth: Math.max(2, Math.round(side / 200)),
        width: side * 0.4,
        height: 0,
      };
    case 'qr':
      return { value: 'https://example.com', width: side * 0.25, height: side * 0.25 };
    case 'video': {
      // A video is 16:9 until its asset says otherwise.
      const size = options.imageSize;
      const width = side * 0.6;
      const height = size && size.width > 0 ? (width * size.height) / size.width : (width * 9) / 16;
      return { src: options.src ?? '', width, height };
    }
    case 'barcode':
      // Code 128 takes any ASCII, so the stand-in value always encodes.
      return { format: 'code128', value: 'PLATEN-0001', width: side * 0.45, height: side * 0.18 };
  }
}

/** A new element of `type` centred on `page`, with an id unique in `doc`. */
export function createElement(
  doc: DesignDocument,
  page: Page,
  type: AddableType,
  options: NewElementOptions = {},
): Element {
  const side = Math.min(page.width, page.height);
  const content = contentFor(type, side, options);
  const width = Math.round(Number(content.width));
  const height = Math.round(Number(content.height));
  const raw = {
    ...content,
    id: freshId(type, usedIds(doc)),
    type,
    width,
    height,
    x: Math.round((page.width - width) / 2),
    y: Math.round((page.height - height) / 2),
  };
  return elementSchema.parse(raw);
}
