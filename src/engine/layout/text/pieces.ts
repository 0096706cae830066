/**
 * Styled pieces of text and their widths. A piece is text in one style; a list of pieces is kept
 * merged (no two neighbours share a style), so plain text is always a single piece and is measured
 * as one string, exactly as before rich text existed. `GraphemeRow` measures prefixes of a styled
 * word cluster by cluster (for breaking a word wider than the box) with a bounded number of
 * measurer calls: whole pieces are measured once and summed, only the cut piece is re-measured.
 */
import { graphemes, trimTrailingSpace } from './segments.ts';

export interface Piece {
  text: string;
  /** Index into the element's resolved styles. */
  style: number;
}

/** Width of `text` in style `style` (letter spacing included, as the canvas measures it). */
export type Measure = (style: number, text: string) => number;

/** Appends a piece, merging it into the last one when they share a style. */
export function pushPiece(pieces: Piece[], piece: Piece): void {
  if (piece.text === '') return;
  const last = pieces.at(-1);
  if (last && last.style === piece.style) last.text += piece.text;
  else pieces.push({ ...piece });
}

export function piecesText(pieces: readonly Piece[]): string {
  let text = '';
  for (const piece of pieces) text += piece.text;
  return text;
}

export function measurePieces(pieces: readonly Piece[], measure: Measure): number {
  let width = 0;
  for (const piece of pieces) width += measure(piece.style, piece.text);
  return width;
}

/** The pieces without the white space that hangs past a line's end (it may span several pieces). */
/** May return `pieces` itself: treat the result as read-only. */
export function trimPieces(pieces: readonly Piece[]): readonly Piece[] {
  let end = pieces.length;
  while (end > 0) {
    const last = pieces[end - 1] as Piece;
    const text = trimTrailingSpace(last.text);
    if (text === last.text) return end === pieces.length ? (pieces as Piece[]) : pieces.slice(0, end);
    if (text !== '') return [...pieces.slice(0, end - 1), { text, style: last.style }];
    end--;
  }
  return [];
}

interface Cluster {
  text: string;
  piece: number;
}

const SPACE_ONLY = /^[^\S\u00a0\u202f]+$/u;

export class GraphemeRow {
  readonly length: number;
  private readonly clusters: Cluster[] = [];
  private readonly firstCluster: number[] = [];
  private readonly fullWidths: number[] | null;
  private readonly widthBefore: number[] = [];

  constructor(
    private readonly pieces: readonly Piece[],
    private readonly measure: Measure,
  ) {
    pieces.forEach((piece, index) => {
      this.firstCluster.push(this.clusters.length);
      for (const text of graphemes(piece.text)) this.clusters.push({ text, piece: index });
    });
    this.firstCluster.push(this.clusters.length);
    this.length = this.clusters.length;
    // Whole-piece widths are only needed when a range can cover a piece in full between two cut ones.
    this.fullWidths = pieces.length > 2 ? pieces.map((piece) => measure(piece.style, piece.text)) : null;
    let sum = 0;
    for (const width of this.fullWidths ?? []) {
      this.widthBefore.push(sum);
      sum += width;
    }
  }

  /** Pieces of clusters [from, to), `suffix` appended to the last one (in its style). */
  slice(from: number, to: number, suffix = ''): Piece[] {
    const pieces: Piece[] = [];
    for (let i = from; i < to; i++) {
      const cluster = this.clusters[i] as Cluster;
      pushPiece(pieces, { text: cluster.text, style: (this.pieces[cluster.piece] as Piece).style });
    }
    const last = pieces.at(-1);
    if (last) last.text += suffix;
    return pieces;
  }

  /** End of [from, to) once trailing white-space clusters are dropped. */
  trimmedEnd(from: number, to: number): number {
    let end = to;
    while (end > from && SPACE_ONLY.test((this.clusters[end - 1] as Cluster).text)) end--;
    return end;
  }

  /** Width of clusters [from, to) plus `suffix` in the style of the last one. */
  width(from: number, to: number, suffix = ''): number {
    if (to <= from) return 0;
    const firstPiece = (this.clusters[from] as Cluster).piece;
    const lastPiece = (this.clusters[to - 1] as Cluster).piece;
    if (firstPiece === lastPiece) return this.partWidth(firstPiece, from, to, suffix);
    let width = this.partWidth(firstPiece, from, this.firstCluster[firstPiece + 1] as number, '');
    width += this.partWidth(lastPiece, this.firstCluster[lastPiece] as number, to, suffix);
    if (lastPiece > firstPiece + 1 && this.fullWidths) {
      width += (this.widthBefore[lastPiece] as number) - (this.widthBefore[firstPiece + 1] as number);
    }
    return width;
  }

  /** Largest n ≥ 1 such that clusters [from, from + n) and `suffix` fit; 1 even when one does not. */
  fittingCount(from: number, maxWidth: number, suffix = ''): number {
    let lo = 1;
    let hi = this.length - from;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.width(from, from + mid, suffix) <= maxWidth) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private partWidth(piece: number, from: number, to: number, suffix: string): number {
    const style = (this.pieces[piece] as Piece).style;
    let text = '';
    for (let i = from; i < to; i++) text += (this.clusters[i] as Cluster).text;
    return this.measure(style, text + suffix);
  }
}
