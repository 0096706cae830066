/**
 * Smart resize: a page (or every page of a document) redrawn at another size. Pure, and the result
 * stays valid for the schema. The rules, chosen so a 1080×1080 post reads well as a story or a banner:
 * - sizes scale uniformly by the smaller of the two axis factors, so nothing is distorted or cut;
 * - an element that spans (almost) the whole page along an axis, a full-bleed photo or band,
 *   stretches along that axis instead, if its content tolerates it (not QR, ellipse or SVG);
 * - each element stays anchored to what it was nearest to on each axis: the start edge, the end
 *   edge or the centre, so margins scale and corner badges stay in their corners;
 * - an element drawn inside another one below it (text on a card) is anchored within that
 *   container rather than the page, so a card and its contents move together;
 * - text scales too, but never below a readable floor, and becomes `autoFit: shrink` so a box that
 *   ended up small for its text shrinks the text (down to the floor) rather than overflowing.
 */
import { designBounds } from './bounds.ts';
import type { Element } from './elements.ts';
import type { DesignDocument, Page } from './schema.ts';

export interface TargetSize {
  width: number;
  height: number;
}

/** A span at least this share of the page side counts as full-bleed along that axis. */
export const FULL_BLEED_SHARE = 0.9;
/** No scaled text goes below this many units (unless it was smaller to begin with). */
export const MIN_READABLE_FONT_SIZE = 12;
/** …nor below this share of the new page's shorter side, so a 4K page keeps legible type. */
export const READABLE_SHARE = 0.016;

type Anchor = 'start' | 'center' | 'end';

interface Axis {
  /** The old and the new page side. */
  from: number;
  to: number;
}

const round = (value: number): number => Math.round(value * 100) / 100;
const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));
const coordinate = (value: number): number =>
  clamp(round(value), -designBounds.coordinate, designBounds.coordinate);

/** The axis-aligned bounds of the element as drawn (rotation about the box centre included). */
export function rotatedBounds(el: Pick<Element, 'x' | 'y' | 'width' | 'height' | 'rotation'>): {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
} {
  const cx = el.x + el.width / 2;
  const cy = el.y + el.height / 2;
  const radians = (el.rotation * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  const w = Math.abs(el.width);
  const h = Math.abs(el.height);
  const halfW = (w * cos + h * sin) / 2;
  const halfH = (w * sin + h * cos) / 2;
  return { minX: cx - halfW, minY: cy - halfH, maxX: cx + halfW, maxY: cy + halfH };
}

/** Which of start edge, end edge or centre the span [min, max] is closest to on a side of `size`. */
export function nearestAnchor(min: number, max: number, size: number): Anchor {
  const start = Math.abs(min);
  const end = Math.abs(size - max);
  const center = Math.abs((min + max) / 2 - size / 2);
  if (center <= start && center <= end) return 'center';
  return start <= end ? 'start' : 'end';
}

/** The new centre on one axis for a span [min, max] with centre `c`, scaled by `k` and anchored. */
function placeCenter(min: number, max: number, c: number, k: number, axis: Axis): number {
  switch (nearestAnchor(min, max, axis.from)) {
    case 'start':
      return min * k + (c - min) * k;
    case 'end':
      return axis.to - (axis.from - max) * k - (max - c) * k;
    case 'center':
      return axis.to / 2 + (c - axis.from / 2) * k;
  }
}

// A group scales its children as one picture, so it never stretches either (nor does a barcode).
const stretchable = (el: Element): boolean =>
  el.type !== 'qr' &&
  el.type !== 'ellipse' &&
  el.type !== 'svg' &&
  el.type !== 'group' &&
  el.type !== 'barcode';

function fullBleed(min: number, max: number, side: number): boolean {
  return max - min >= side * FULL_BLEED_SHARE;
}

/** The smallest font size a scaled text may get on a page of the given size. */
export function readableFloor(original: number, target: TargetSize): number {
  const floor = Math.max(MIN_READABLE_FONT_SIZE, Math.min(target.width, target.height) * READABLE_SHARE);
  return Math.min(original, floor);
}

function scaleText(el: Element & { type: 'text' }, k: number, target: TargetSize): Element {
  const { min, max } = designBounds.fontSize;
  const floor = readableFloor(el.fontSize, target);
  const fontSize = clamp(round(Math.max(el.fontSize * k, floor)), min, max);
  const minFontSize = clamp(round(Math.min(fontSize, Math.max(floor, el.minFontSize * k))), min, max);
  const letterSpacing = clamp(
    round(el.letterSpacing * k),
    -designBounds.letterSpacing,
    designBounds.letterSpacing,
  );
  const ratio = fontSize / el.fontSize;
  const spans = el.spans?.map((span) => ({
    ...span,
    ...(span.fontSize !== undefined ? { fontSize: clamp(round(span.fontSize * ratio), min, max) } : {}),
    ...(span.letterSpacing !== undefined
      ? {
          letterSpacing: clamp(
            round(span.letterSpacing * k),
            -designBounds.letterSpacing,
            designBounds.letterSpacing,
          ),
        }
      : {}),
  }));
  return { ...el, fontSize, minFontSize, letterSpacing, autoFit: 'shrink', ...(spans ? { spans } : {}) };
}

/** Shadows and blurs scale with the element, within their bounds. */
function scaleEffects(el: Element, k: number): Element {
  const blur = (radius: number): number => clamp(round(radius * k), 0, designBounds.blurRadius);
  const offset = (value: number): number =>
    clamp(round(value * k), -designBounds.shadowOffset, designBounds.shadowOffset);
  return {
    ...el,
    ...(el.blur !== undefined ? { blur: blur(el.blur) } : {}),
    ...(el.shadow
      ? {
          shadow: {
            ...el.shadow,
            blur: blur(el.shadow.blur),
            offsetX: offset(el.shadow.offsetX),
            offsetY: offset(el.shadow.offsetY),
          },
        }
      : {}),
  };
}

/** A group's child, whose box is relative to the group: scaled about the group's origin. */
function scaleChild(el: Element, k: number, target: TargetSize): Element {
  const sizeMin = el.type === 'line' ? -designBounds.coordinate : 0;
  const placed = {
    ...el,
    x: coordinate(el.x * k),
    y: coordinate(el.y * k),
    width: clamp(round(el.width * k), sizeMin, designBounds.size),
    height: clamp(round(el.height * k), sizeMin, designBounds.size),
  };
  return scaleDetails(placed, k, target);
}

/** Stroke widths, radii, dashes and effects scale uniformly: a 2-unit outline stays a hairline, not a band. */
function scaleDetails(el: Element, k: number, target: TargetSize): Element {
  return scaleOwnDetails(scaleEffects(el, k), k, target);
}

function scaleOwnDetails(el: Element, k: number, target: TargetSize): Element {
  const stroke = (width: number): number =>
    width > 0 ? clamp(round(Math.max(width * k, 0.5)), 0, designBounds.strokeWidth) : width;
  switch (el.type) {
    case 'text':
      return scaleText(el, k, target);
    case 'rect':
      return {
        ...el,
        strokeWidth: stroke(el.strokeWidth),
        cornerRadius: clamp(round(el.cornerRadius * k), 0, designBounds.cornerRadius),
      };
    case 'ellipse':
      return { ...el, strokeWidth: stroke(el.strokeWidth) };
    case 'line':
      return {
        ...el,
        strokeWidth: stroke(el.strokeWidth),
        dash: el.dash.map((value) => clamp(round(value * k), 0, designBounds.dashValue)),
      };
    case 'image':
      return {
        ...el,
        cornerRadius: clamp(round(el.cornerRadius * k), 0, designBounds.cornerRadius),
        ...(el.strokeWidth !== undefined ? { strokeWidth: stroke(el.strokeWidth) } : {}),
      };
    case 'group':
      return { ...el, elements: el.elements.map((child) => scaleChild(child, k, target)) };
    default:
      return el;
  }
}

type Bounds = ReturnType<typeof rotatedBounds>;

/** The frame an element is anchored in: the page, or a container's old and new drawn bounds. */
interface Frame {
  from: Bounds;
  to: Bounds;
}

const pageBounds = (size: TargetSize): Bounds => ({ minX: 0, minY: 0, maxX: size.width, maxY: size.height });

/** One element placed on the resized page, anchored in `frame` (the whole page by default). */
export function resizeElement(el: Element, from: TargetSize, to: TargetSize, frame?: Frame): Element {
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  const uniform = Math.min(sx, sy);
  const f = frame ?? { from: pageBounds(from), to: pageBounds(to) };
  const bounds = rotatedBounds(el);
  const unrotated = el.rotation % 180 === 0;
  // Stretching a rotated box would shear it; only axis-aligned (or half-turned) boxes stretch.
  const stretch = !frame && unrotated && stretchable(el);
  const kx = stretch && fullBleed(bounds.minX, bounds.maxX, from.width) ? sx : uniform;
  const ky = stretch && fullBleed(bounds.minY, bounds.maxY, from.height) ? sy : uniform;
  const cx = el.x + el.width / 2;
  const cy = el.y + el.height / 2;
  const x: Axis = { from: f.from.maxX - f.from.minX, to: f.to.maxX - f.to.minX };
  const y: Axis = { from: f.from.maxY - f.from.minY, to: f.to.maxY - f.to.minY };
  const ox = f.from.minX;
  const oy = f.from.minY;
  const ncx = f.to.minX + placeCenter(bounds.minX - ox, bounds.maxX - ox, cx - ox, kx, x);
  const ncy = f.to.minY + placeCenter(bounds.minY - oy, bounds.maxY - oy, cy - oy, ky, y);
  const sizeMin = el.type === 'line' ? -designBounds.coordinate : 0;
  const width = clamp(round(el.width * kx), sizeMin, designBounds.size);
  const height = clamp(round(el.height * ky), sizeMin, designBounds.size);
  const placed = { ...el, x: coordinate(ncx - width / 2), y: coordinate(ncy - height / 2), width, height };
  return scaleDetails(placed, uniform, to);
}

const contains = (outer: Bounds, inner: Bounds): boolean =>
  outer.minX <= inner.minX + 1 &&
  outer.minY <= inner.minY + 1 &&
  outer.maxX >= inner.maxX - 1 &&
  outer.maxY >= inner.maxY - 1;

const area = (b: Bounds): number => (b.maxX - b.minX) * (b.maxY - b.minY);

/**
 * The smallest element below `index` whose drawn box holds this one: a card under its text. A
 * full-bleed element is no container (anchoring to it is anchoring to the page), nor is a line.
 */
function containerOf(
  elements: readonly Element[],
  bounds: readonly Bounds[],
  index: number,
  size: TargetSize,
) {
  const inner = bounds[index];
  let best: number | null = null;
  let bestArea = Number.POSITIVE_INFINITY;
  elements.slice(0, index).forEach((el, i) => {
    const b = bounds[i];
    if (!inner || !b || el.type === 'line' || !el.visible) return;
    if (fullBleed(b.minX, b.maxX, size.width) || fullBleed(b.minY, b.maxY, size.height)) return;
    if (area(b) <= area(inner) || area(b) >= bestArea || !contains(b, inner)) return;
    best = i;
    bestArea = area(b);
  });
  return best;
}

function resizeElements(elements: readonly Element[], from: TargetSize, to: TargetSize): Element[] {
  const before = elements.map(rotatedBounds);
  const after: Bounds[] = [];
  return elements.map((el, index) => {
    const container = containerOf(elements, before, index, from);
    const frameFrom = container === null ? undefined : before[container];
    const frameTo = container === null ? undefined : after[container];
    const frame = frameFrom && frameTo ? { from: frameFrom, to: frameTo } : undefined;
    const resized = resizeElement(el, from, to, frame);
    after.push(rotatedBounds(resized));
    return resized;
  });
}

/** The page at the new size, ids unchanged. */
export function resizePage(page: Page, size: TargetSize): Page {
  const from = { width: page.width, height: page.height };
  const to = { width: Math.round(size.width), height: Math.round(size.height) };
  return {
    ...page,
    width: to.width,
    height: to.height,
    elements: resizeElements(page.elements, from, to),
  };
}

/** Every page of the document at the new size (a new template of another size), ids unchanged. */
export function resizeDocument(doc: DesignDocument, size: TargetSize): DesignDocument {
  return { ...doc, pages: doc.pages.map((page) => resizePage(page, size)) };
}
