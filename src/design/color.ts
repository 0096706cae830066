/**
 * Colours in the design document: the accepted syntaxes (`#rgb`, `#rrggbb`, `#rrggbbaa`,
 * `rgb()`/`rgba()`, `transparent`), one parser that turns any of them into RGBA numbers (the PDF
 * backend needs numbers, not CSS), and the zod schema built on that parser so both agree.
 */
import { z } from 'zod';

/** A parsed colour: channels 0-255 (integers), alpha 0-1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)%?`;
// rgb(1, 2, 3) / rgba(1, 2, 3, 0.5) / rgb(1 2 3 / 50%): the legacy comma form and the CSS 4 space form.
const COMMA_FORM = new RegExp(
  String.raw`^rgba?\(\s*(${NUMBER})\s*,\s*(${NUMBER})\s*,\s*(${NUMBER})\s*(?:,\s*(${NUMBER})\s*)?\)$`,
  'i',
);
const SPACE_FORM = new RegExp(
  String.raw`^rgba?\(\s*(${NUMBER})\s+(${NUMBER})\s+(${NUMBER})\s*(?:/\s*(${NUMBER})\s*)?\)$`,
  'i',
);
const MAX_COLOR_LENGTH = 64;

function parseHex(digits: string): Rgba {
  const full =
    digits.length <= 4
      ? digits
          .split('')
          .map((d) => d + d)
          .join('')
      : digits;
  const channel = (i: number): number => Number.parseInt(full.slice(i * 2, i * 2 + 2), 16);
  const a = full.length === 8 ? channel(3) / 255 : 1;
  return { r: channel(0), g: channel(1), b: channel(2), a };
}

/** A channel is 0-255, or a percentage of 255; out-of-range values make the colour invalid. */
function parseChannel(text: string): number | null {
  const value = text.endsWith('%') ? (Number.parseFloat(text) * 255) / 100 : Number.parseFloat(text);
  if (!Number.isFinite(value) || value < 0 || value > 255) return null;
  return Math.round(value);
}

function parseAlpha(text: string | undefined): number | null {
  if (text === undefined) return 1;
  const value = text.endsWith('%') ? Number.parseFloat(text) / 100 : Number.parseFloat(text);
  if (!Number.isFinite(value) || value < 0 || value > 1) return null;
  return value;
}

function parseFunctional(text: string): Rgba | null {
  const match = COMMA_FORM.exec(text) ?? SPACE_FORM.exec(text);
  if (!match) return null;
  const [, rs = '', gs = '', bs = '', as] = match;
  const r = parseChannel(rs);
  const g = parseChannel(gs);
  const b = parseChannel(bs);
  const a = parseAlpha(as);
  if (r === null || g === null || b === null || a === null) return null;
  return { r, g, b, a };
}

/** Parses a document colour; `null` when the text is not one of the accepted syntaxes. */
export function parseColor(text: string): Rgba | null {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_COLOR_LENGTH) return null;
  if (trimmed.toLowerCase() === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const hex = HEX.exec(trimmed);
  if (hex?.[1]) return parseHex(hex[1]);
  return parseFunctional(trimmed);
}

export function isColor(value: unknown): value is string {
  return typeof value === 'string' && parseColor(value) !== null;
}

export const COLOR_MESSAGE = 'must be a colour: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba() or transparent';

/** A colour string, kept as written (normalising it would change stored documents for no gain). */
export const colorSchema = z
  .string()
  .max(MAX_COLOR_LENGTH, { error: COLOR_MESSAGE })
  .refine((value) => parseColor(value) !== null, { error: COLOR_MESSAGE });

/** The legacy `rgba(r, g, b, a)` form every Canvas 2D implementation understands. */
export function toCssRgba(color: Rgba): string {
  return `rgba(${color.r}, ${color.g}, ${color.b}, ${Number(color.a.toFixed(4))})`;
}
