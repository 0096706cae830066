/**
 * The styled content of a text element: its spans (or its plain text, as one span) resolved
 * against the element (a span inherits what it omits), text-transformed, and cut into paragraphs
 * at explicit newlines. Each paragraph is one string (line breaking and bidi look at the whole
 * paragraph, across span boundaries) plus the style ranges that cover it.
 */
import type { DocumentPaint, Span, TextElement } from '../../../design/index.ts';
import { applyTextTransform, type TextTransform } from './segments.ts';

export interface TextStyle {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  /** Size before auto-fit scaling. */
  size: number;
  color: DocumentPaint;
  underline: boolean;
  strike: boolean;
  letterSpacing: number;
  background: string | null;
  link: string | null;
}

/** `style` (an index into StyledText.styles) covers `text.slice(start, end)` of its paragraph. */
export interface StyleRange {
  start: number;
  end: number;
  style: number;
}

export interface StyledParagraph {
  text: string;
  /** Sorted, touching, non-empty ranges covering `text` exactly. */
  ranges: StyleRange[];
  /** The style of an empty paragraph's line (its height), and of text at its very start. */
  lineStyle: number;
}

export interface StyledText {
  styles: TextStyle[];
  paragraphs: StyledParagraph[];
  /** Plain `text` (not spans): one style, laid out exactly as version 1 did. */
  plain: boolean;
}

function elementStyle(el: TextElement): TextStyle {
  return {
    family: el.fontFamily,
    weight: el.fontWeight,
    style: el.fontStyle,
    size: el.fontSize,
    color: el.color,
    underline: false,
    strike: false,
    letterSpacing: el.letterSpacing,
    background: null,
    link: null,
  };
}

function spanStyle(base: TextStyle, span: Span): TextStyle {
  return {
    family: span.fontFamily ?? base.family,
    weight: span.fontWeight ?? base.weight,
    style: span.fontStyle ?? base.style,
    size: span.fontSize ?? base.size,
    color: span.color ?? base.color,
    underline: span.underline ?? false,
    strike: span.strike ?? false,
    letterSpacing: span.letterSpacing ?? base.letterSpacing,
    background: span.background ?? null,
    link: span.link ?? null,
  };
}

/** Spans in a row that resolve to the same style share one entry, so runs merge across them. */
function styleKey(style: TextStyle): string {
  return JSON.stringify(style);
}

/**
 * A span's text transformed as if it continued the text before it: `capitalize` must not
 * capitalise "ld" in "bo|ld". The previous character is transformed along and cut off again.
 */
function transformInContext(text: string, before: string, transform: TextTransform): string {
  if (transform !== 'capitalize' || before === '') return applyTextTransform(text, transform);
  const lead = applyTextTransform(before, transform);
  return applyTextTransform(before + text, transform).slice(lead.length);
}

/** The last code point (a surrogate pair stays whole). */
function lastCharacter(text: string): string {
  const code = text.charCodeAt(text.length - 1);
  const pair = code >= 0xdc00 && code <= 0xdfff && text.length > 1;
  return text.slice(pair ? -2 : -1);
}

const NEWLINE = /\r\n|[\n\r\u2028\u2029]/g;

export function styledText(el: TextElement): StyledText {
  const base = elementStyle(el);
  const spans: Span[] = el.spans ?? [{ text: el.text }];
  const styles: TextStyle[] = [];
  const keys = new Map<string, number>();
  const pieces: { text: string; style: number }[] = [];
  let before = '';
  for (const span of spans) {
    const style = el.spans === undefined ? base : spanStyle(base, span);
    const key = el.spans === undefined ? '' : styleKey(style);
    let index = keys.get(key);
    if (index === undefined) {
      index = styles.push(style) - 1;
      keys.set(key, index);
    }
    const text = transformInContext(span.text, before, el.textTransform);
    if (span.text !== '') before = lastCharacter(span.text);
    pieces.push({ text, style: index });
  }
  return { styles, paragraphs: splitStyledParagraphs(pieces), plain: el.spans === undefined };
}

/**
 * Concatenates the pieces and cuts at newlines (a CRLF split across two spans is still one). One
 * forward pass over the pieces: a thousand spans with a newline each stay linear.
 */
function splitStyledParagraphs(pieces: { text: string; style: number }[]): StyledParagraph[] {
  const whole = pieces.map((piece) => piece.text).join('');
  const bounds: [number, number][] = [];
  let from = 0;
  for (const match of whole.matchAll(NEWLINE)) {
    bounds.push([from, match.index]);
    from = match.index + match[0].length;
  }
  bounds.push([from, whole.length]);

  const paragraphs: StyledParagraph[] = [];
  let index = 0;
  let pieceStart = 0;
  let lastStyle = pieces[0]?.style ?? 0;
  for (const [start, end] of bounds) {
    const ranges: StyleRange[] = [];
    // Skip pieces that end before this paragraph, remembering the style of the text they held.
    while (index < pieces.length && pieceStart + (pieces[index]?.text.length ?? 0) <= start) {
      const piece = pieces[index];
      if (piece && piece.text.length > 0) lastStyle = piece.style;
      pieceStart += piece?.text.length ?? 0;
      index++;
    }
    let i = index;
    let at = pieceStart;
    while (i < pieces.length && at < end) {
      const piece = pieces[i];
      if (!piece) break;
      const a = Math.max(start, at) - start;
      const b = Math.min(end, at + piece.text.length) - start;
      const last = ranges.at(-1);
      if (b > a) {
        if (last && last.style === piece.style && last.end === a) last.end = b;
        else ranges.push({ start: a, end: b, style: piece.style });
      }
      at += piece.text.length;
      i++;
    }
    paragraphs.push({ text: whole.slice(start, end), ranges, lineStyle: ranges[0]?.style ?? lastStyle });
  }
  return paragraphs;
}
