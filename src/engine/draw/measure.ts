/**
 * Text measurement backed by a Canvas 2D context (a scratch canvas in Node, an OffscreenCanvas in
 * the browser), memoised per font, letter spacing and text: auto-fit measures the same words at
 * several sizes and every render of a template measures the same strings again.
 */
import type { TextMeasurer, TextMetricsLite } from '../layout/types.ts';
import type { TextMetricsLike } from './context.ts';

export interface MeasuringContext {
  font: string;
  letterSpacing: string;
  wordSpacing: string;
  measureText(text: string): TextMetricsLike;
}

const MAX_ENTRIES = 50_000;

export function createCanvasMeasurer(ctx: MeasuringContext): TextMeasurer {
  const widths = new Map<string, number>();
  const metrics = new Map<string, TextMetricsLite>();
  let font = '';
  let spacing = Number.NaN;

  const use = (nextFont: string, nextSpacing: number): void => {
    if (nextFont !== font) {
      ctx.font = nextFont;
      font = nextFont;
    }
    if (nextSpacing !== spacing) {
      ctx.letterSpacing = `${nextSpacing}px`;
      spacing = nextSpacing;
    }
  };
  ctx.wordSpacing = '0px';

  return {
    width(nextFont, text, letterSpacing) {
      const key = `${nextFont}\u0000${letterSpacing}\u0000${text}`;
      const known = widths.get(key);
      if (known !== undefined) return known;
      use(nextFont, letterSpacing);
      const width = ctx.measureText(text).width;
      if (widths.size >= MAX_ENTRIES) widths.clear();
      widths.set(key, width);
      return width;
    },
    metrics(nextFont) {
      const known = metrics.get(nextFont);
      if (known) return known;
      use(nextFont, 0);
      const m = ctx.measureText('Hg');
      const result = { ascent: m.fontBoundingBoxAscent, descent: m.fontBoundingBoxDescent };
      metrics.set(nextFont, result);
      return result;
    },
  };
}
