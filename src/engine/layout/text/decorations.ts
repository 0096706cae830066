/**
 * What rich text draws besides glyphs: the element's highlight (a rounded box behind each line),
 * span backgrounds, underline and strike-through, and link areas. Boxes use the font's ascent and
 * descent (its content area, as CSS paints inline backgrounds), not the line height.
 *
 * Decoration lines are filled rectangles in the span's colour, 1/14 of its size thick (close to
 * the underline thickness fonts such as Inter declare); the underline sits 0.4 × descent below the
 * baseline (about 0.1 em, where fonts put theirs), strike-through 0.3 × ascent above it (about
 * half the x-height).
 */
import { parseColor, toCssRgba } from '../../../design/index.ts';
import { rectPath } from '../geometry.ts';
import type { LinkOp, Paint, PathOp } from '../types.ts';

export const DECORATION_THICKNESS = 1 / 14;
const UNDERLINE_DROP = 0.4;
const STRIKE_RISE = 0.3;

/** A laid-out piece: its box on the line and what it decorates. */
export interface PlacedPiece {
  x: number;
  width: number;
  baseline: number;
  ascent: number;
  descent: number;
  size: number;
  paint: Paint;
  underline: boolean;
  strike: boolean;
  background: string | null;
  link: string | null;
}

export function cssColor(color: string): string | null {
  const parsed = parseColor(color);
  return parsed && parsed.a > 0 ? toCssRgba(parsed) : null;
}

export function filledRect(
  x: number,
  y: number,
  width: number,
  height: number,
  paint: Paint,
  radius = 0,
): PathOp {
  return { op: 'path', d: rectPath(x, y, width, height, radius), fill: { paint, alpha: 1, rule: 'nonzero' } };
}

export function backgroundOp(piece: PlacedPiece): PathOp | null {
  const paint = piece.background ? cssColor(piece.background) : null;
  if (!paint || piece.width <= 0) return null;
  return filledRect(piece.x, piece.baseline - piece.ascent, piece.width, piece.ascent + piece.descent, paint);
}

export function underlineOp(piece: PlacedPiece): PathOp | null {
  if (!piece.underline || piece.width <= 0) return null;
  const thickness = piece.size * DECORATION_THICKNESS;
  const centre = piece.baseline + piece.descent * UNDERLINE_DROP;
  return filledRect(piece.x, centre - thickness / 2, piece.width, thickness, piece.paint);
}

export function strikeOp(piece: PlacedPiece): PathOp | null {
  if (!piece.strike || piece.width <= 0) return null;
  const thickness = piece.size * DECORATION_THICKNESS;
  const centre = piece.baseline - piece.ascent * STRIKE_RISE;
  return filledRect(piece.x, centre - thickness / 2, piece.width, thickness, piece.paint);
}

export function linkOp(piece: PlacedPiece): LinkOp | null {
  if (!piece.link || piece.width <= 0) return null;
  return {
    op: 'link',
    x: piece.x,
    y: piece.baseline - piece.ascent,
    width: piece.width,
    height: piece.ascent + piece.descent,
    // The parser's form: non-ASCII percent-encoded (an IDN host in punycode), as a PDF URI must be.
    url: new URL(piece.link).href,
  };
}
