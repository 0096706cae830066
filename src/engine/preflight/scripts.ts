/**
 * Which writing system a character belongs to, to group missing characters the way a user thinks
 * of them ("Thai", "Emoji"), from Unicode's Script property (ECMAScript `\p{Script=…}`, UAX #24).
 * The list is the scripts people write templates in; any other is named by its code point range.
 */

const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ['Emoji', /\p{Extended_Pictographic}|\p{Regional_Indicator}/u],
  ['Latin', /\p{Script=Latin}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Syriac', /\p{Script=Syriac}/u],
  ['Thaana', /\p{Script=Thaana}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Bengali', /\p{Script=Bengali}/u],
  ['Gurmukhi', /\p{Script=Gurmukhi}/u],
  ['Gujarati', /\p{Script=Gujarati}/u],
  ['Oriya', /\p{Script=Oriya}/u],
  ['Tamil', /\p{Script=Tamil}/u],
  ['Telugu', /\p{Script=Telugu}/u],
  ['Kannada', /\p{Script=Kannada}/u],
  ['Malayalam', /\p{Script=Malayalam}/u],
  ['Sinhala', /\p{Script=Sinhala}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Lao', /\p{Script=Lao}/u],
  ['Tibetan', /\p{Script=Tibetan}/u],
  ['Myanmar', /\p{Script=Myanmar}/u],
  ['Khmer', /\p{Script=Khmer}/u],
  ['Ethiopic', /\p{Script=Ethiopic}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Han', /\p{Script=Han}/u],
  ['Mongolian', /\p{Script=Mongolian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Canadian Aboriginal', /\p{Script=Canadian_Aboriginal}/u],
];

/** Characters no font needs to draw: spaces, controls, format marks (ZWJ), variation selectors. */
const INVISIBLE = /[\p{White_Space}\p{Cc}\p{Cf}]/u;

function isVariationSelector(codePoint: number): boolean {
  return (codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef);
}

export function needsGlyph(char: string): boolean {
  return !INVISIBLE.test(char) && !isVariationSelector(char.codePointAt(0) ?? 0);
}

export function scriptOf(char: string): string {
  for (const [name, pattern] of SCRIPTS) if (pattern.test(char)) return name;
  return /\p{Script=Common}/u.test(char) ? 'Symbols' : 'Other';
}

/** `U+0E01` for a code point, as the Unicode standard writes them. */
export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
