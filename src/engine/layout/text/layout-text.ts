/**
 * Text element layout: styled content (plain text, or rich-text spans each inheriting from the
 * element), wrapping at the chosen size, `autoFit: shrink` (binary search for the largest element
 * size that fits the box, never below minFontSize; every span's size scales by the same factor),
 * then positioned runs: one per same-style piece of a line, so plain text stays one run per line
 * as in version 1 (justify goes through word spacing, so a line stays real text in PDF and keeps
 * its bidi order). A line is as tall as its largest size × lineHeight, with CSS-like
 * half-leading around the tallest ascent and descent on it. Besides runs it yields the highlight
 * boxes and span backgrounds (behind), underline and strike-through, and link areas.
 */
import type { DocumentPaint, TextElement } from '../../../design/index.ts';
import { parseColor, toCssRgba } from '../../../design/index.ts';
import { fontShorthand, roundSize } from '../fonts.ts';
import type { Box } from '../geometry.ts';
import { paintFor } from '../paint.ts';
import type { DrawOp, LayoutEnv, LinkOp, Paint, PathOp, TextRunOp } from '../types.ts';
import { visualOrder } from './bidi.ts';
import {
  backgroundOp,
  cssColor,
  filledRect,
  linkOp,
  type PlacedPiece,
  strikeOp,
  underlineOp,
} from './decorations.ts';
import type { Measure } from './pieces.ts';
import { countStretchableSpaces } from './segments.ts';
import { styledText, type TextStyle } from './styles.ts';
import {
  type SegmentedParagraph,
  segmentParagraph,
  type WrappedLine,
  type WrapResult,
  wrapParagraphs,
} from './wrap.ts';

interface SizedWrap extends WrapResult {
  /** The element's font size at this attempt; spans scale with it. */
  size: number;
  /** Per style: scaled size and font shorthand. */
  sizes: number[];
  fonts: string[];
  measure: Measure;
  /** Per line: its line box height. */
  lineBoxes: number[];
  height: number;
}

interface Content {
  styles: TextStyle[];
  paragraphs: SegmentedParagraph[];
}

export interface TextLayout {
  /** Everything the element draws, back to front. */
  ops: DrawOp[];
  /** The text runs among `ops`. */
  runs: TextRunOp[];
  fontSize: number;
  lines: WrappedLine[];
  /** How the text met its box at `fontSize` (what preflight reports; drawing ignores it). */
  fit: TextFit;
}

export interface TextFit {
  /** Height of the laid-out lines, in page units. */
  height: number;
  /** A word wider than the box was broken inside. */
  brokeWord: boolean;
  /** Lines were dropped to honour maxLines. */
  truncated: boolean;
  /** Neither: every line is whole and inside the box. */
  fits: boolean;
}

/** Granularity of the auto-fit search, in page units. */
const FIT_STEP = 0.5;
const TRANSPARENT = 'rgba(0, 0, 0, 0)';

/** A style's size when the element is at `size`: inherited sizes are exactly `size`. */
function scaledSize(style: TextStyle, el: TextElement, size: number): number {
  return style.size === el.fontSize ? size : (style.size * size) / el.fontSize;
}

function lineBoxOf(line: WrappedLine, sizes: number[], lineHeight: number): number {
  if (line.pieces.length === 0) return roundSize(sizes[line.lineStyle] ?? 0) * lineHeight;
  let largest = 0;
  for (const piece of line.pieces) largest = Math.max(largest, roundSize(sizes[piece.style] ?? 0));
  return largest * lineHeight;
}

function wrapAt(el: TextElement, content: Content, size: number, env: LayoutEnv): SizedWrap {
  const sizes = content.styles.map((style) => scaledSize(style, el, size));
  const fonts = content.styles.map((style, index) =>
    fontShorthand(env.fonts, {
      family: style.family,
      weight: style.weight,
      style: style.style,
      size: sizes[index] ?? size,
    }),
  );
  const spacings = content.styles.map((style) => style.letterSpacing);
  const { measurer } = env;
  const onlyFont = fonts[0] ?? '';
  const onlySpacing = spacings[0] ?? 0;
  // One style (always so for plain text): skip the per-call lookups on the hottest path.
  const measure: Measure =
    fonts.length === 1
      ? (_style, text) => measurer.width(onlyFont, text, onlySpacing)
      : (style, text) => measurer.width(fonts[style] ?? '', text, spacings[style] ?? 0);
  const wrapped = wrapParagraphs(content.paragraphs, el.width, measure, el.maxLines);
  const lineBoxes = wrapped.lines.map((line) => lineBoxOf(line, sizes, el.lineHeight));
  const first = lineBoxes[0] ?? 0;
  // Equal lines (always so for plain text) multiply, as version 1 did, so fits() decides identically.
  const height = lineBoxes.every((box) => box === first)
    ? lineBoxes.length * first
    : lineBoxes.reduce((sum, box) => sum + box, 0);
  return { ...wrapped, size, sizes, fonts, measure, lineBoxes, height };
}

function fits(el: TextElement, wrap: SizedWrap): boolean {
  return !wrap.brokeWord && !wrap.truncated && wrap.height <= el.height + 0.01;
}

/** The largest size on the FIT_STEP grid between minFontSize and fontSize whose layout fits. */
function shrinkToFit(el: TextElement, content: Content, env: LayoutEnv): SizedWrap {
  const full = wrapAt(el, content, el.fontSize, env);
  if (fits(el, full)) return full;
  const min = Math.min(el.minFontSize, el.fontSize);
  let hi = Math.floor(el.fontSize / FIT_STEP);
  let lo = Math.min(Math.max(1, Math.ceil(min / FIT_STEP)), hi);
  let best = wrapAt(el, content, lo * FIT_STEP, env);
  if (!fits(el, best)) return best;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const attempt = wrapAt(el, content, mid * FIT_STEP, env);
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

/** A style's text paint: colours exactly as version 1 wrote them, gradients over the element box. */
function paintOf(color: DocumentPaint, box: Box): Paint {
  if (typeof color === 'string') return toCssRgba(parseColor(color) ?? { r: 0, g: 0, b: 0, a: 1 });
  return paintFor(color, box) ?? TRANSPARENT;
}

/** Ops of one layout, collected by layer and concatenated back to front. */
class Layers {
  readonly highlights: PathOp[] = [];
  readonly backgrounds: PathOp[] = [];
  readonly underlines: PathOp[] = [];
  readonly runs: TextRunOp[] = [];
  readonly strikes: PathOp[] = [];
  readonly links: LinkOp[] = [];

  decorate(piece: PlacedPiece): void {
    const background = backgroundOp(piece);
    if (background) this.backgrounds.push(background);
    const underline = underlineOp(piece);
    if (underline) this.underlines.push(underline);
    const strike = strikeOp(piece);
    if (strike) this.strikes.push(strike);
    const link = linkOp(piece);
    if (link) this.links.push(link);
  }

  ops(): DrawOp[] {
    const others = [this.highlights, this.backgrounds, this.underlines, this.strikes, this.links];
    if (others.every((layer) => layer.length === 0)) return this.runs.slice();
    return [
      ...this.highlights,
      ...this.backgrounds,
      ...this.underlines,
      ...this.runs,
      ...this.strikes,
      ...this.links,
    ];
  }
}

/** What stays the same for every line of one layout. */
interface LineContext {
  el: TextElement;
  env: LayoutEnv;
  styles: TextStyle[];
  wrap: SizedWrap;
  paint: (style: number) => Paint;
  stroke: string | null;
  highlight: string | null;
  layers: Layers;
}

/** Positions one line's pieces (visual order) on its baseline, with their decorations. */
function placeLine(context: LineContext, line: WrappedLine, lineTop: number, lineBox: number): void {
  const { el, env, styles, wrap, layers } = context;
  let ascent = 0;
  let descent = 0;
  const metrics = line.pieces.map((piece) => env.measurer.metrics(wrap.fonts[piece.style] ?? ''));
  for (const m of metrics) {
    ascent = Math.max(ascent, m.ascent);
    descent = Math.max(descent, m.descent);
  }
  // CSS-like half-leading around the tallest ascent and descent on the line.
  const baseline = lineTop + (lineBox - (ascent + descent)) / 2 + ascent;
  // Canvas letter spacing also follows the last glyph; alignment ignores that trailing gap.
  const lastIndex = line.pieces.length - 1;
  const trailingGap = styles[line.pieces[lastIndex]?.style ?? line.lineStyle]?.letterSpacing ?? 0;
  const inkWidth = line.width - trailingGap;
  const wordSpacing = wordSpacingFor(el, line, inkWidth);
  const lineWidth = inkWidth + wordSpacing * line.stretchableSpaces;
  const left = lineX(el, line, lineWidth);
  if (context.highlight && el.highlight) {
    const pad = el.highlight.padding;
    layers.highlights.push(
      filledRect(
        left - pad,
        baseline - ascent - pad,
        lineWidth + 2 * pad,
        ascent + descent + 2 * pad,
        context.highlight,
        el.highlight.cornerRadius,
      ),
    );
  }
  const single = line.pieces.length === 1;
  let x = left;
  for (const index of visualOrder(line.pieces, line.direction)) {
    const piece = line.pieces[index];
    const style = piece && styles[piece.style];
    if (!piece || !style) continue;
    // A single piece is the whole line: its width and spaces are known (plain text, as in v1).
    const width = single ? line.width : wrap.measure(piece.style, piece.text);
    const spaces = single ? line.stretchableSpaces : countStretchableSpaces(piece.text);
    const advance = width + wordSpacing * spaces;
    const run: TextRunOp = {
      op: 'text',
      font: wrap.fonts[piece.style] ?? '',
      color: context.paint(piece.style),
      x,
      y: baseline,
      text: piece.text,
      direction: line.direction,
      letterSpacing: style.letterSpacing,
      wordSpacing,
    };
    if (context.stroke && el.stroke) run.stroke = { color: context.stroke, width: el.stroke.width };
    layers.runs.push(run);
    if (style.underline || style.strike || style.background || style.link) {
      const m = metrics[index] ?? { ascent, descent };
      layers.decorate({
        x,
        width: advance - (index === lastIndex ? trailingGap : 0),
        baseline,
        ascent: m.ascent,
        descent: m.descent,
        size: wrap.sizes[piece.style] ?? wrap.size,
        paint: run.color,
        underline: style.underline,
        strike: style.strike,
        background: style.background,
        link: style.link,
      });
    }
    x += advance;
  }
}

export function layoutText(el: TextElement, env: LayoutEnv): TextLayout {
  const styled = styledText(el);
  const content: Content = { styles: styled.styles, paragraphs: styled.paragraphs.map(segmentParagraph) };
  const wrap =
    el.autoFit === 'shrink' ? shrinkToFit(el, content, env) : wrapAt(el, content, el.fontSize, env);
  const box: Box = { x: el.x, y: el.y, width: el.width, height: el.height };
  const paints: Paint[] = [];
  const context: LineContext = {
    el,
    env,
    styles: content.styles,
    wrap,
    paint: (style) => {
      paints[style] ??= paintOf(content.styles[style]?.color ?? '#000000', box);
      return paints[style];
    },
    stroke: el.stroke && el.stroke.width > 0 ? cssColor(el.stroke.color) : null,
    highlight: el.highlight ? cssColor(el.highlight.color) : null,
    layers: new Layers(),
  };
  const free = el.height - wrap.height;
  const top = el.y + (el.verticalAlign === 'middle' ? free / 2 : el.verticalAlign === 'bottom' ? free : 0);
  const uniform = wrap.lineBoxes.every((lineBox) => lineBox === wrap.lineBoxes[0]);
  let lineTop = top;
  wrap.lines.forEach((line, index) => {
    const lineBox = wrap.lineBoxes[index] ?? 0;
    // Equal lines sit at index × lineBox, exactly as version 1 placed them.
    if (line.text !== '') placeLine(context, line, uniform ? top + index * lineBox : lineTop, lineBox);
    lineTop += lineBox;
  });
  const { layers } = context;
  const fit: TextFit = {
    height: wrap.height,
    brokeWord: wrap.brokeWord,
    truncated: wrap.truncated,
    fits: fits(el, wrap),
  };
  return { ops: layers.ops(), runs: layers.runs, fontSize: wrap.size, lines: wrap.lines, fit };
}
