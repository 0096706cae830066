/**
 * What an SVG's filters will cost a rasteriser, estimated from the markup before it runs. Filters
 * are where SVG work stops being linear in its size: `feTurbulence` costs a pass per octave,
 * `feMorphology` and `feConvolveMatrix` grow with their radius and kernel, and every element that
 * uses a filter pays it again over the whole filter region (at most the raster). The estimate is
 * in "pixel passes": passes per output pixel times the raster's pixels.
 *
 * Measured with resvg inside @napi-rs/canvas at 2000x2000 (4 MP): a turbulence octave ≈ 45 ms,
 * a 3-pass Gaussian blur ≈ 35 ms, a morphology radius of 100 ≈ 2 s. One pass ≈ 10 ns a pixel.
 */

import { parseNumberList, parseStyleAttribute } from './values.ts';
import type { XmlElement } from './xml.ts';

/** Pixel passes one SVG raster may cost: about five seconds of one core at ~10 ns a pass. */
export const SVG_MAX_FILTER_WORK = 500_000_000;

/** Passes per output pixel: `fixed` plus `perScale` × device pixels per SVG user unit. */
export interface SvgFilterCost {
  fixed: number;
  perScale: number;
}

const ZERO: SvgFilterCost = { fixed: 0, perScale: 0 };

/** The cost of one filter primitive, from its attributes. */
function primitiveCost(node: XmlElement): SvgFilterCost {
  switch (node.name) {
    case 'feTurbulence': {
      const octaves = Number.parseInt(node.attrs.numOctaves ?? '1', 10);
      return { fixed: Number.isFinite(octaves) ? Math.max(1, octaves) : 1, perScale: 0 };
    }
    case 'feMorphology': {
      // Work per pixel grows with the radius in device pixels, x and y (one value is both).
      const [rx = 0, ry = rx] = parseNumberList(node.attrs.radius ?? '').map((v) =>
        Number.isFinite(v) ? Math.abs(v) : 0,
      );
      return { fixed: 1, perScale: (rx + ry) / 4 };
    }
    case 'feConvolveMatrix': {
      const order = parseNumberList(node.attrs.order ?? '3').map((v) => (Number.isFinite(v) ? v : 3));
      const [x = 3, y = x] = order;
      return { fixed: 1 + (Math.abs(x) * Math.abs(y)) / 4, perScale: 0 };
    }
    case 'feGaussianBlur':
    case 'feDropShadow':
    case 'feDiffuseLighting':
    case 'feSpecularLighting':
      return { fixed: 3, perScale: 0 };
    default:
      return node.name.startsWith('fe') ? { fixed: 1, perScale: 0 } : ZERO;
  }
}

function add(a: SvgFilterCost, b: SvgFilterCost, times = 1): SvgFilterCost {
  return { fixed: a.fixed + b.fixed * times, perScale: a.perScale + b.perScale * times };
}

function walk(node: XmlElement, visit: (node: XmlElement) => void): void {
  visit(node);
  for (const child of node.children) walk(child, visit);
}

const FILTER_REF = /url\(\s*['"]?#([^'")\s]+)/i;

/** The filter id an element uses, from its attribute or inline style. */
function filterUsed(node: XmlElement): string | undefined {
  const value = parseStyleAttribute(node.attrs.style).filter ?? node.attrs.filter;
  return value ? FILTER_REF.exec(value)?.[1] : undefined;
}

/**
 * Passes per output pixel for the whole SVG. Conservative where markup can multiply work: a style
 * sheet that mentions `filter` may apply the dearest filter to every element, and every `<use>`
 * may draw the filtered content once more.
 */
export function svgFilterCost(root: XmlElement): SvgFilterCost {
  const filters = new Map<string, SvgFilterCost>();
  let uses = 0;
  let elements = 0;
  let styleSheetFilters = false;
  walk(root, (node) => {
    elements++;
    if (node.name === 'use') uses++;
    if (node.name === 'style' && /filter/i.test(node.text)) styleSheetFilters = true;
    if (node.name === 'filter' && node.attrs.id) {
      filters.set(
        node.attrs.id,
        node.children.map(primitiveCost).reduce((a, b) => add(a, b), ZERO),
      );
    }
  });
  let total = ZERO;
  walk(root, (node) => {
    const id = filterUsed(node);
    const cost = id ? filters.get(id) : undefined;
    if (cost) total = add(total, cost);
  });
  if (styleSheetFilters) {
    const dearest = [...filters.values()].reduce(
      (a, b) => (b.fixed + b.perScale > a.fixed + a.perScale ? b : a),
      ZERO,
    );
    total = add(total, dearest, elements);
  }
  return uses > 0 && (total.fixed > 0 || total.perScale > 0) ? add(ZERO, total, 1 + uses) : total;
}

/** Pixel passes of rasterising at `pixels` device pixels, `scale` device pixels per user unit. */
export function svgFilterWork(cost: SvgFilterCost, pixels: number, scale: number): number {
  return pixels * (cost.fixed + cost.perScale * scale);
}
