/**
 * What a page will cost to render, counted from the document alone before any work is done
 * (design document version 2), so a render that would run long is refused before it is charged:
 * - elements wherever they nest, and text spans;
 * - the pixels effects pass over. Blur, shadow and filter work grows with the area an effect covers
 *   (Skia blurs in a few box passes per pixel, whatever the radius), so each effect is weighed by
 *   the area its element draws (an unclipped group: its children's too) grown by its reach, never
 *   more than the page, times the pixels per unit squared;
 * - redraws: a group with effects draws its content twice (into its layer, then as vectors), so
 *   content under k such groups is drawn 2^k times; weighed per element and per 100 characters;
 * - barcode bytes (the encoder's work grows with them: about 80 ms for a 1,500-byte Data Matrix);
 * - auto-fit text styles: `autoFit: shrink` measures every distinct span style at each step.
 */
import type { Element, GroupElement } from './elements.ts';
import type { Page } from './schema.ts';
import { walkElements } from './tree.ts';

export interface PageCost {
  /** Every element, nested ones included, groups too. */
  elements: number;
  spans: number;
  /** Shadows, blurs and image filters. */
  effects: number;
  /** Pixels that effects pass over, at the given pixels per unit. */
  effectPixels: number;
  /** Where most of the effect pixels come from, for the error message's path. */
  costliest: (string | number)[] | null;
  /** Elements plus text per 100 characters, each times 2^(groups with effects around it). */
  redraws: number;
  /** UTF-8 bytes of barcode values (what the encoder works through). */
  barcodeBytes: number;
  /** Distinct span sizes of `autoFit: shrink` texts (each measured again at every step). */
  autoFitStyles: number;
}

type Bounds = [number, number, number, number];

/** How far an element's effects reach beyond its box, in page units. */
export function effectReach(element: Element): number {
  const shadow = element.shadow
    ? Math.max(Math.abs(element.shadow.offsetX), Math.abs(element.shadow.offsetY)) + 3 * element.shadow.blur
    : 0;
  const blur = 3 * (element.blur ?? 0);
  const filter = element.type === 'image' ? 3 * (element.filters?.blur ?? 0) : 0;
  return Math.max(shadow, blur, filter);
}

function effectCount(element: Element): number {
  let count = 0;
  if (element.shadow) count++;
  if (element.blur) count++;
  // Any filter draws the image through a layer, blur or not.
  if (element.type === 'image' && element.filters && Object.keys(element.filters).length > 0) count++;
  return count;
}

/**
 * What the element may draw, in its parent's coordinates: its box (lines may point anywhere), an
 * unclipped group's children too, a rotated box by the circle around it, grown by the effects' reach.
 */
function drawnBounds(element: Element): Bounds {
  const x0 = Math.min(element.x, element.x + element.width);
  const y0 = Math.min(element.y, element.y + element.height);
  let b: Bounds = [x0, y0, x0 + Math.abs(element.width), y0 + Math.abs(element.height)];
  if (element.type === 'group' && !element.clip) b = withChildren(element, b);
  if (element.rotation % 360 !== 0) {
    const cx = (b[0] + b[2]) / 2;
    const cy = (b[1] + b[3]) / 2;
    const r = Math.hypot(b[2] - b[0], b[3] - b[1]) / 2;
    b = [cx - r, cy - r, cx + r, cy + r];
  }
  const reach = effectReach(element);
  return [b[0] - reach, b[1] - reach, b[2] + reach, b[3] + reach];
}

function withChildren(group: GroupElement, own: Bounds): Bounds {
  const b: Bounds = [...own];
  for (const child of group.elements) {
    const [l, t, r, bottom] = drawnBounds(child);
    b[0] = Math.min(b[0], group.x + l);
    b[1] = Math.min(b[1], group.y + t);
    b[2] = Math.max(b[2], group.x + r);
    b[3] = Math.max(b[3], group.y + bottom);
  }
  return b;
}

function textCharacters(element: Element): number {
  if (element.type !== 'text') return 0;
  return element.spans ? element.spans.reduce((sum, span) => sum + span.text.length, 0) : element.text.length;
}

function autoFitStyles(element: Element): number {
  if (element.type !== 'text' || element.autoFit !== 'shrink') return 0;
  if (!element.spans) return 1;
  return new Set(element.spans.map((span) => `${span.fontSize}|${span.fontFamily}|${span.fontWeight}`)).size;
}

const utf8 = new TextEncoder();

/** The page's cost at `pixelsPerUnit` (the raster scale; for PDF, the scale its layers draw at). */
export function pageCost(page: Page, pixelsPerUnit = 1): PageCost {
  const cost: PageCost = {
    elements: 0,
    spans: 0,
    effects: 0,
    effectPixels: 0,
    costliest: null,
    redraws: 0,
    barcodeBytes: 0,
    autoFitStyles: 0,
  };
  const pageArea = page.width * page.height;
  let worst = 0;
  for (const { element, path, ancestors } of walkElements(page.elements)) {
    cost.elements++;
    const repeats = 2 ** ancestors.filter((group) => effectCount(group) > 0).length;
    cost.redraws += repeats * (1 + Math.ceil(textCharacters(element) / 100));
    if (element.type === 'text') cost.spans += element.spans?.length ?? 0;
    if (element.type === 'barcode') cost.barcodeBytes += utf8.encode(element.value).length;
    cost.autoFitStyles += autoFitStyles(element);
    const count = effectCount(element);
    if (count === 0) continue;
    cost.effects += count;
    const [l, t, r, b] = drawnBounds(element);
    const area = Math.min((r - l) * (b - t), pageArea);
    const pixels = area * pixelsPerUnit * pixelsPerUnit * count * repeats;
    cost.effectPixels += pixels;
    if (pixels > worst) {
      worst = pixels;
      cost.costliest = path;
    }
  }
  return cost;
}
