/**
 * Text element layout: text-transform, wrapping at the chosen size, `autoFit: shrink` (binary
 * search for the largest size that fits the box, never below minFontSize), then one positioned
 * run per line: horizontal alignment (justify through word spacing, so a line stays one run of
 * real text in PDF and keeps its bidi order) and vertical alignment with CSS-like half-leading.
 */
import type { TextElement } from '../../../design/index.ts';
import { parseColor, toCssRgba } from '../../../design/index.ts';
import { fontShorthand, roundSize } from '../fonts.ts';
import type { LayoutEnv, TextRunOp } from '../types.ts';
import { applyTextTransform, splitParagraphs } from './segments.ts';
import { type WrappedLine, type WrapResult, wrapParagraphs } from './wrap.ts';

interface SizedWrap extends WrapResult {
  size: number;
  font: string;
  lineBox: number;
}

export interface TextLayout {
  runs: TextRunOp[];
  fontSize: number;
  lines: WrappedLine[];
}

/** Granularity of the auto-fit search, in page units. */
const FIT_STEP = 0.5;

function wrapAt(el: TextElement, paragraphs: string[], size: number, env: LayoutEnv): SizedWrap {
  const font = fontShorthand(env.fonts, {
    family: el.fontFamily,
    weight: el.fontWeight,
    style: el.fontStyle,
    size,
  });
  const measure = (text: string): number => env.measurer.width(font, text, el.letterSpacing);
  const wrapped = wrapParagraphs(paragraphs, el.width, measure, el.maxLines);
  return { ...wrapped, size, font, lineBox: roundSize(size) * el.lineHeight };
}

function fits(el: TextElement, wrap: SizedWrap): boolean {
  return !wrap.brokeWord && !wrap.truncated && wrap.lines.length * wrap.lineBox <= el.height + 0.01;
}

/** The largest size on the FIT_STEP grid between minFontSize and fontSize whose layout fits. */
function shrinkToFit(el: TextElement, paragraphs: string[], env: LayoutEnv): SizedWrap {
  const full = wrapAt(el, paragraphs, el.fontSize, env);
  if (fits(el, full)) return full;
  const min = Math.min(el.minFontSize, el.fontSize);
  let hi = Math.floor(el.fontSize / FIT_STEP);
  let lo = Math.min(Math.max(1, Math.ceil(min / FIT_STEP)), hi);
  let best = wrapAt(el, paragraphs, lo * FIT_STEP, env);
  if (!fits(el, best)) return best;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const attempt = wrapAt(el, paragraphs, mid * FIT_STEP, env);
    if (fits(el, attempt)) {
      lo = mid;
      best = attempt;
    } else hi = mid;
  }
  return best;
}

function lineX(el: TextElement, line: WrappedLine, width: number): number {
  const free = el.width - width;
  switch (el.align) {
    case 'center':
      return el.x + free / 2;
    case 'right':
      return el.x + free;
    case 'justify':
      // The last line of a justified paragraph sits at its start edge, as in CSS.
      return line.paragraphEnd && line.direction === 'rtl' ? el.x + free : el.x;
    default:
      return el.x;
  }
}

function wordSpacingFor(el: TextElement, line: WrappedLine, width: number): number {
  if (el.align !== 'justify' || line.paragraphEnd || line.stretchableSpaces === 0) return 0;
  return Math.max(0, (el.width - width) / line.stretchableSpaces);
}

export function layoutText(el: TextElement, env: LayoutEnv): TextLayout {
  const paragraphs = splitParagraphs(applyTextTransform(el.text, el.textTransform));
  const wrap =
    el.autoFit === 'shrink' ? shrinkToFit(el, paragraphs, env) : wrapAt(el, paragraphs, el.fontSize, env);
  const { ascent, descent } = env.measurer.metrics(wrap.font);
  const blockHeight = wrap.lines.length * wrap.lineBox;
  const free = el.height - blockHeight;
  const top = el.y + (el.verticalAlign === 'middle' ? free / 2 : el.verticalAlign === 'bottom' ? free : 0);
  const halfLeading = (wrap.lineBox - (ascent + descent)) / 2;
  const color = toCssRgba(parseColor(el.color) ?? { r: 0, g: 0, b: 0, a: 1 });
  const runs: TextRunOp[] = [];
  wrap.lines.forEach((line, index) => {
    if (line.text === '') return;
    // Canvas letter spacing also follows the last glyph; alignment ignores that trailing gap.
    const inkWidth = line.width - el.letterSpacing;
    const wordSpacing = wordSpacingFor(el, line, inkWidth);
    runs.push({
      op: 'text',
      font: wrap.font,
      color,
      x: lineX(el, line, inkWidth + wordSpacing * line.stretchableSpaces),
      y: top + index * wrap.lineBox + halfLeading + ascent,
      text: line.text,
      direction: line.direction,
      letterSpacing: el.letterSpacing,
      wordSpacing,
    });
  });
  return { runs, fontSize: wrap.size, lines: wrap.lines };
}
