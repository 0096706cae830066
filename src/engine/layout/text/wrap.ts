/**
 * Line wrapping: greedy filling of break-opportunity segments into lines no wider than the box,
 * breaking a word that is wider than the box between grapheme clusters (never overflowing), and
 * truncating to `maxLines` with an ellipsis. Widths come from the caller's measure function, so
 * this is independent of any canvas.
 */
import {
  breakSegments,
  countStretchableSpaces,
  graphemes,
  paragraphDirection,
  trimTrailingSpace,
} from './segments.ts';

export interface WrappedLine {
  /** The line's text without the white space it hangs past its edge. */
  text: string;
  /** Advance width of `text`. */
  width: number;
  /** Last line of its paragraph (not justified). */
  paragraphEnd: boolean;
  direction: 'ltr' | 'rtl';
  stretchableSpaces: number;
}

export interface WrapResult {
  lines: WrappedLine[];
  /** A word had to be broken inside because it was wider than the box. */
  brokeWord: boolean;
  /** Lines were dropped to honour maxLines. */
  truncated: boolean;
}

export type Measure = (text: string) => number;

const EPSILON = 0.01;
export const ELLIPSIS = '…';

/** Largest n ≥ 1 such that the first n parts fit; 1 even when the first part alone overflows. */
function fittingCount(parts: string[], maxWidth: number, measure: Measure, suffix = ''): number {
  let lo = 1;
  let hi = parts.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(parts.slice(0, mid).join('') + suffix) <= maxWidth + EPSILON) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

class LineBuilder {
  readonly lines: WrappedLine[] = [];
  brokeWord = false;
  private text = '';
  private advance = 0;

  constructor(
    private readonly maxWidth: number,
    private readonly measure: Measure,
    private readonly direction: 'ltr' | 'rtl',
  ) {}

  add(segment: string): void {
    const content = trimTrailingSpace(segment);
    const contentWidth = this.advance + this.measure(content);
    if (contentWidth <= this.maxWidth + EPSILON) {
      this.text += segment;
      this.advance += this.measure(segment);
      return;
    }
    if (this.text !== '') this.flush(false);
    if (this.measure(content) <= this.maxWidth + EPSILON) {
      this.text = segment;
      this.advance = this.measure(segment);
      return;
    }
    this.breakWord(segment);
  }

  /** A segment wider than the box: whole lines of graphemes, the remainder starts the next line. */
  private breakWord(segment: string): void {
    this.brokeWord = true;
    let parts = graphemes(segment);
    while (parts.length > 0) {
      const rest = parts.join('');
      if (this.measure(trimTrailingSpace(rest)) <= this.maxWidth + EPSILON) {
        this.text = rest;
        this.advance = this.measure(rest);
        return;
      }
      const count = fittingCount(parts, this.maxWidth, this.measure);
      this.text = parts.slice(0, count).join('');
      this.flush(false);
      parts = parts.slice(count);
    }
  }

  flush(paragraphEnd: boolean): void {
    const text = trimTrailingSpace(this.text);
    this.lines.push({
      text,
      width: this.measure(text),
      paragraphEnd,
      direction: this.direction,
      stretchableSpaces: countStretchableSpaces(text),
    });
    this.text = '';
    this.advance = 0;
  }
}

function truncateLine(line: WrappedLine, maxWidth: number, measure: Measure): WrappedLine {
  const parts = graphemes(line.text);
  let text = ELLIPSIS;
  if (measure(line.text + ELLIPSIS) <= maxWidth + EPSILON) text = line.text + ELLIPSIS;
  else if (parts.length > 1) {
    const count = fittingCount(parts, maxWidth, measure, ELLIPSIS);
    text = trimTrailingSpace(parts.slice(0, count).join('')) + ELLIPSIS;
  }
  return { ...line, text, width: measure(text), paragraphEnd: true };
}

export function wrapParagraphs(
  paragraphs: string[],
  maxWidth: number,
  measure: Measure,
  maxLines: number | null,
): WrapResult {
  const lines: WrappedLine[] = [];
  let brokeWord = false;
  for (const paragraph of paragraphs) {
    const builder = new LineBuilder(maxWidth, measure, paragraphDirection(paragraph));
    for (const segment of breakSegments(paragraph)) builder.add(segment);
    builder.flush(true);
    lines.push(...builder.lines);
    brokeWord ||= builder.brokeWord;
    if (maxLines !== null && lines.length > maxLines) break;
  }
  if (maxLines === null || lines.length <= maxLines) return { lines, brokeWord, truncated: false };
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1];
  if (last) kept[maxLines - 1] = truncateLine(last, maxWidth, measure);
  return { lines: kept, brokeWord, truncated: true };
}
