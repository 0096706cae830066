/**
 * Visual order of the styled pieces of one line (rich text). The text shaper orders characters
 * inside each run; between runs we apply a reduced UAX #9 at piece granularity: a piece whose
 * strong characters are all right-to-left (or all left-to-right) takes that direction, a piece
 * without strong characters (spaces, digits, punctuation) takes its neighbours' direction when
 * both sides agree and the paragraph's otherwise (rules N1/N2), a piece mixing both takes the
 * paragraph's; levels follow I1/I2 and runs are reversed as in L2. So an RTL paragraph lays its
 * pieces right to left, and an Arabic span inside a Latin paragraph (or the reverse) reads in its
 * own direction. Digits are not promoted to their own level (W2/I2 for numbers are not modelled).
 */
import type { Piece } from './pieces.ts';
import { strongDirections } from './segments.ts';

type Strong = 'ltr' | 'rtl' | null;

function pieceDirection(piece: Piece, base: 'ltr' | 'rtl'): Strong {
  const found = strongDirections(piece.text);
  if (found.ltr && found.rtl) return base;
  if (found.rtl) return 'rtl';
  if (found.ltr) return 'ltr';
  return null;
}

/** Indices of `pieces` (logical order) from left to right. */
export function visualOrder(pieces: readonly Piece[], base: 'ltr' | 'rtl'): number[] {
  const logical = pieces.map((_, index) => index);
  if (pieces.length < 2) return logical;
  const strong = pieces.map((piece) => pieceDirection(piece, base));
  // Nearest strong direction on each side, in two linear passes.
  const before: Strong[] = [];
  let seen: Strong = null;
  for (const direction of strong) {
    before.push(seen);
    seen = direction ?? seen;
  }
  const after: Strong[] = new Array(strong.length).fill(null);
  seen = null;
  for (let i = strong.length - 1; i >= 0; i--) {
    after[i] = seen;
    seen = strong[i] ?? seen;
  }
  const resolved = strong.map((direction, index) => {
    if (direction) return direction;
    const left = before[index] ?? base;
    return left === (after[index] ?? base) ? left : base;
  });
  const baseLevel = base === 'rtl' ? 1 : 0;
  const levels = resolved.map((direction) =>
    baseLevel === 0 ? (direction === 'rtl' ? 1 : 0) : direction === 'ltr' ? 2 : 1,
  );
  const order = logical.slice();
  const highest = Math.max(...levels);
  for (let level = highest; level >= 1; level--) {
    let i = 0;
    while (i < order.length) {
      if ((levels[order[i] as number] as number) < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < order.length && (levels[order[j] as number] as number) >= level) j++;
      order.splice(i, j - i, ...order.slice(i, j).reverse());
      i = j;
    }
  }
  return order;
}
