/**
 * Line wrapping: greedy filling of break-opportunity segments into lines no wider than the box,
 * breaking a word that is wider than the box between grapheme clusters (never overflowing), and
 * truncating to `maxLines` with an ellipsis. Break opportunities come from the whole paragraph
 * (a word split over two spans, "bo" bold + "ld", is one word); each segment is a list of styled
 * pieces whose widths come from the caller's measure function, so this is independent of any
 * canvas. The ellipsis takes the style of the text it follows.
 */
import {
  GraphemeRow,
  type Measure,
  measurePieces,
  type Piece,
  piecesText,
  pushPiece,
  trimPieces,
} from './pieces.ts';
import { breakSegments, countStretchableSpaces, paragraphDirection } from './segments.ts';
import type { StyledParagraph } from './styles.ts';

export interface WrappedLine {
  /** The line's text without the white space it hangs past its edge. */
  text: string;
  /** The same text in styled pieces, logical order, neighbours of one style merged. */
  pieces: readonly Piece[];
  /** Advance width of `text` (the sum of its pieces' widths). */
  width: number;
  /** Last line of its paragraph (not justified). */
  paragraphEnd: boolean;
  direction: 'ltr' | 'rtl';
  stretchableSpaces: number;
  /** The style that sets an empty line's height. */
  lineStyle: number;
}

export interface WrapResult {
  lines: WrappedLine[];
  /** A word had to be broken inside because it was wider than the box. */
  brokeWord: boolean;
  /** Lines were dropped to honour maxLines. */
  truncated: boolean;
}

/** A paragraph cut at its break opportunities, independent of size (computed once per element). */
export interface SegmentedParagraph {
  segments: Piece[][];
  direction: 'ltr' | 'rtl';
  lineStyle: number;
}

const EPSILON = 0.01;
export const ELLIPSIS = '…';

export function segmentParagraph(paragraph: StyledParagraph): SegmentedParagraph {
  const segments: Piece[][] = [];
  let range = 0;
  let start = 0;
  for (const segment of breakSegments(paragraph.text)) {
    const end = start + segment.length;
    const pieces: Piece[] = [];
    while (range < paragraph.ranges.length) {
      const current = paragraph.ranges[range] as (typeof paragraph.ranges)[number];
      const from = Math.max(start, current.start);
      const to = Math.min(end, current.end);
      if (to > from) pieces.push({ text: paragraph.text.slice(from, to), style: current.style });
      if (current.end > end) break;
      range++;
    }
    segments.push(pieces);
    start = end;
  }
  return { segments, direction: paragraphDirection(paragraph.text), lineStyle: paragraph.lineStyle };
}

function lineOf(
  pieces: readonly Piece[],
  measure: Measure,
  paragraph: SegmentedParagraph,
  paragraphEnd: boolean,
): WrappedLine {
  const text = piecesText(pieces);
  return {
    text,
    pieces,
    width: measurePieces(pieces, measure),
    paragraphEnd,
    direction: paragraph.direction,
    stretchableSpaces: countStretchableSpaces(text),
    lineStyle: pieces[0]?.style ?? paragraph.lineStyle,
  };
}

class LineBuilder {
  readonly lines: WrappedLine[] = [];
  brokeWord = false;
  private pieces: Piece[] = [];
  private advance = 0;

  constructor(
    private readonly maxWidth: number,
    private readonly measure: Measure,
    private readonly paragraph: SegmentedParagraph,
  ) {}

  add(segment: readonly Piece[]): void {
    const contentWidth = measurePieces(trimPieces(segment), this.measure);
    if (this.advance + contentWidth <= this.maxWidth + EPSILON) {
      for (const piece of segment) pushPiece(this.pieces, piece);
      this.advance += measurePieces(segment, this.measure);
      return;
    }
    if (this.pieces.length > 0) this.flush(false);
    if (contentWidth <= this.maxWidth + EPSILON) {
      for (const piece of segment) pushPiece(this.pieces, piece);
      this.advance = measurePieces(segment, this.measure);
      return;
    }
    this.breakWord(segment);
  }

  /** A segment wider than the box: whole lines of graphemes, the remainder starts the next line. */
  private breakWord(segment: readonly Piece[]): void {
    this.brokeWord = true;
    const row = new GraphemeRow(segment, this.measure);
    const limit = this.maxWidth + EPSILON;
    let from = 0;
    while (from < row.length) {
      if (row.width(from, row.trimmedEnd(from, row.length)) <= limit) {
        this.pieces = row.slice(from, row.length);
        this.advance = row.width(from, row.length);
        return;
      }
      const count = row.fittingCount(from, limit);
      this.pieces = row.slice(from, from + count);
      this.flush(false);
      from += count;
    }
  }

  flush(paragraphEnd: boolean): void {
    this.lines.push(lineOf(trimPieces(this.pieces), this.measure, this.paragraph, paragraphEnd));
    this.pieces = [];
    this.advance = 0;
  }
}

function truncateLine(line: WrappedLine, maxWidth: number, measure: Measure): WrappedLine {
  const row = new GraphemeRow(line.pieces, measure);
  const limit = maxWidth + EPSILON;
  const lastStyle = line.pieces.at(-1)?.style ?? line.lineStyle;
  let pieces: readonly Piece[] = [{ text: ELLIPSIS, style: lastStyle }];
  if (row.length > 0 && row.width(0, row.length, ELLIPSIS) <= limit)
    pieces = row.slice(0, row.length, ELLIPSIS);
  else if (row.length > 1) {
    const count = row.fittingCount(0, limit, ELLIPSIS);
    const kept = trimPieces(row.slice(0, count));
    const last = kept.at(-1);
    pieces = last
      ? [...kept.slice(0, -1), { text: last.text + ELLIPSIS, style: last.style }]
      : [{ text: ELLIPSIS, style: row.slice(0, 1)[0]?.style ?? lastStyle }];
  }
  const text = piecesText(pieces);
  return {
    ...line,
    text,
    pieces,
    width: measurePieces(pieces, measure),
    paragraphEnd: true,
    stretchableSpaces: countStretchableSpaces(text),
  };
}

export function wrapParagraphs(
  paragraphs: readonly SegmentedParagraph[],
  maxWidth: number,
  measure: Measure,
  maxLines: number | null,
): WrapResult {
  const lines: WrappedLine[] = [];
  let brokeWord = false;
  for (const paragraph of paragraphs) {
    const builder = new LineBuilder(maxWidth, measure, paragraph);
    for (const segment of paragraph.segments) builder.add(segment);
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
