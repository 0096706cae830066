/**
 * Text segmentation for layout: text-transform, Unicode line-break opportunities (UAX #14 via
 * `linebreak`), grapheme clusters (so a forced break never splits an emoji or a combining mark)
 * and a paragraph's base direction (first strong character, UAX #9 P2).
 */
import LineBreaker from 'linebreak';

export type TextTransform = 'none' | 'uppercase' | 'lowercase' | 'capitalize';

export function applyTextTransform(text: string, transform: TextTransform): string {
  switch (transform) {
    case 'uppercase':
      return text.toUpperCase();
    case 'lowercase':
      return text.toLowerCase();
    case 'capitalize':
      // The first letter of each word, after whitespace or opening punctuation, as CSS does.
      return text.replace(/(^|[\s\-–—([{"'“‘«])(\p{Ll})/gu, (_m, before: string, letter: string) => {
        return before + letter.toUpperCase();
      });
    default:
      return text;
  }
}

/** Pieces of a paragraph that end at a break opportunity; each keeps its trailing spaces. */
export function breakSegments(paragraph: string): string[] {
  const segments: string[] = [];
  const breaker = new LineBreaker(paragraph);
  let last = 0;
  for (let next = breaker.nextBreak(); next !== null; next = breaker.nextBreak()) {
    if (next.position > last) segments.push(paragraph.slice(last, next.position));
    last = next.position;
  }
  if (last < paragraph.length) segments.push(paragraph.slice(last));
  return segments;
}

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (part) => part.segment);
}

// Trailing white space that a line may hang past its edge; no-break spaces stay.
const TRAILING_SPACE = /[^\S\u00a0\u202f]+$/u;

export function trimTrailingSpace(text: string): string {
  return text.replace(TRAILING_SPACE, '');
}

/** Spaces that canvas `wordSpacing` stretches (checked against Skia: U+0020 and U+00A0). */
export function countStretchableSpaces(text: string): number {
  let count = 0;
  for (const char of text) if (char === ' ' || char === '\u00a0') count++;
  return count;
}

const STRONG_RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const STRONG_LTR =
  /[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u052f\u0900-\u1fff\u2c00-\ufb1c\u{10000}-\u{107ff}]/u;

/** Base direction of a paragraph: that of its first strong character, else left-to-right. */
export function paragraphDirection(text: string): 'ltr' | 'rtl' {
  for (const char of text) {
    if (STRONG_RTL.test(char)) return 'rtl';
    if (STRONG_LTR.test(char)) return 'ltr';
  }
  return 'ltr';
}

/** Which strong directions occur in `text` (digits and punctuation are neutral here). */
export function strongDirections(text: string): { ltr: boolean; rtl: boolean } {
  const found = { ltr: false, rtl: false };
  for (const char of text) {
    if (STRONG_RTL.test(char)) found.rtl = true;
    else if (STRONG_LTR.test(char)) found.ltr = true;
    if (found.ltr && found.rtl) break;
  }
  return found;
}
