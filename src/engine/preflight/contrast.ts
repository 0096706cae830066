/**
 * WCAG 2 contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): relative luminance of sRGB
 * colours and their ratio, (L1 + 0.05) / (L2 + 0.05). Level AA asks 4.5:1 of text and 3:1 of
 * large text: at least 18 pt (24 CSS px), or 14 pt (18.66 px) bold (Success Criterion 1.4.3).
 * A page unit is a CSS pixel at scale 1.
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(color: Rgb): number {
  return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `top` with opacity `alpha` (0-1) over an opaque `bottom`. */
export function over(top: Rgb, alpha: number, bottom: Rgb): Rgb {
  return {
    r: top.r * alpha + bottom.r * (1 - alpha),
    g: top.g * alpha + bottom.g * (1 - alpha),
    b: top.b * alpha + bottom.b * (1 - alpha),
  };
}

export const LARGE_TEXT_PX = 24;
export const LARGE_BOLD_TEXT_PX = 18.66;

/** The AA minimum for text of this size and weight. */
export function requiredRatio(sizePx: number, weight: number): number {
  return sizePx >= LARGE_TEXT_PX || (sizePx >= LARGE_BOLD_TEXT_PX && weight >= 700) ? 3 : 4.5;
}

/**
 * Of the ratios of text against each background pixel, the one that this share of the pixels
 * reaches or beats: text over a photo is judged by most of what is behind it, not its single
 * darkest or lightest pixel.
 */
export const COVERED_SHARE = 0.8;

export function typicalRatio(ratios: Float64Array): number {
  if (ratios.length === 0) return Number.POSITIVE_INFINITY;
  const sorted = ratios.slice().sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * (1 - COVERED_SHARE)))] as number;
}
