/**
 * Barcode elements → vector draw ops. bwip-js (its pure `generic` build, no canvas, no Node) is the
 * encoder: `raw()` gives the exact symbol — bar/space widths in modules for linear formats, the
 * module grid for 2D ones — and this module draws it: the background over the element box, every
 * bar or dark module in one path, and the human-readable digits as text runs in a bundled
 * monospace font (so PDF text stays text and the studio draws the same). bwip-js's own drawing
 * interface is not used because it rounds bar widths to whole pixels of its own scale.
 *
 * Placement: a linear symbol spans the box width (quiet zones included) and its bars fill the box
 * height above the text; a 2D symbol is contained and centred. Module sizes snap down to whole
 * device pixels (and edges to the pixel grid) so bars stay crisp and keep their ratios.
 *
 * Values: the encoder decides what a format can hold, after stricter checks of our own where
 * bwip-js is lenient (it drops spaces in an EAN, and would UTF-8 encode an accented letter into
 * Code 128 so it scans as two other characters). A GS1 value without its check digit (12 digits
 * for EAN-13, 11 for UPC-A, 13 for ITF-14) gets the check digit added, as most tools do; a check
 * digit that is given must be right. Nothing is ever drawn that would scan as another value.
 */
import bwipjs from 'bwip-js/generic';
import {
  type BarcodeElement,
  type Element,
  type Page,
  parseColor,
  toCssRgba,
  walkElements,
} from '../../design/index.ts';
import { LayoutFailure } from './failure.ts';
import { fontShorthand } from './fonts.ts';
import { num, rectPath } from './geometry.ts';
import type { DrawOp, LayoutEnv, TextRunOp } from './types.ts';

type BarcodeFormat = BarcodeElement['format'];

export const BARCODE_FAILURE_CODE = 'BARCODE_INVALID';

const FORMAT_NAMES: Record<BarcodeFormat, string> = {
  code128: 'Code 128',
  ean13: 'EAN-13',
  upca: 'UPC-A',
  code39: 'Code 39',
  itf14: 'ITF-14',
  datamatrix: 'Data Matrix',
  pdf417: 'PDF417',
};

/** Quiet zones in modules, left and right (GS1 and ISO minimums); 2D symbols get one on every side. */
const QUIET: Record<BarcodeFormat, number[]> = {
  ean13: [11, 7],
  upca: [9, 9],
  code128: [10, 10],
  code39: [10, 10],
  itf14: [10, 10],
  datamatrix: [2, 2],
  pdf417: [2, 2],
};

/** ITF-14's bearer frame, in modules (bwip-js's default `borderwidth`); it keeps a skewed scan on the bars. */
const ITF_BEARER = 4;

/** GS1 digit counts without and with the check digit. */
const GS1_LENGTHS: Partial<Record<BarcodeFormat, number>> = { ean13: 13, upca: 12, itf14: 14 };

/** Human-readable text: DejaVu Sans Mono (digits 0.6 em wide, 0.73 em tall). */
const TEXT_FAMILY = 'DejaVu Sans Mono';
const DIGIT_HEIGHT_EM = 0.73;
const TEXT_GAP_EM = 0.2;
/** Text size in modules (a digit then fits its 7-module EAN cell) and as a share of the box height. */
const TEXT_SIZE_MODULES = 10;
const UPC_OUTER_TEXT_SIZE_MODULES = 8;
const TEXT_SIZE_HEIGHT_SHARE = 0.25;

export type EncodedBarcode =
  | {
      kind: 'linear';
      /** Bar, space, bar… widths in modules, starting with a bar. */
      widths: number[];
      /** Per bar: a guard bar that reaches down into the text (EAN/UPC). */
      long: boolean[];
      /** The human-readable line, check digit included. */
      text: string;
    }
  | { kind: 'matrix'; cells: Uint8Array; columns: number; rows: number; cellAspect: number };

type RawLinear = { sbs: number[]; bbs: number[] };
type RawMatrix = { pixs: number[]; pixx: number; pixy: number; width: number; height: number };

/** GS1 mod-10 check digit of the digits before it. */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const weight = (digits.length - i) % 2 === 1 ? 3 : 1;
    sum += Number(digits[i]) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

const isControl = (code: number) => code < 0x20 || code === 0x7f;

function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Bytes (UTF-8) a value may have, so a value that cannot fit is refused by arithmetic before any
 * encoder work. Measured against bwip-js 4.11: Code 128 and Code 39 take at most 500 characters;
 * Data Matrix (144×144) holds 1,556 bytes; PDF417 holds 1,108 bytes of binary but only about 927
 * characters of mixed text, so 900 is the bound that always fits (numeric data could hold more).
 */
const BYTE_CAPACITY: Partial<Record<BarcodeFormat, number>> = {
  code128: 500,
  code39: 500,
  datamatrix: 1556,
  pdf417: 900,
};

const utf8Length = (value: string): number => new TextEncoder().encode(value).length;

/**
 * Our own checks before the encoder's: a reason, or null. Cheap (no encoding), so the render
 * service runs them on every barcode before charging without blocking its event loop.
 */
export function barcodeValueProblem(format: BarcodeFormat, value: string): string | null {
  const name = FORMAT_NAMES[format];
  const capacity = BYTE_CAPACITY[format];
  if (capacity !== undefined && utf8Length(value) > capacity)
    return `${name} holds at most ${capacity} bytes of text`;
  if (/[\uD800-\uDFFF]/u.test(value)) return `${name}: the value is not valid Unicode text`;
  const full = GS1_LENGTHS[format];
  if (full !== undefined) {
    if (!/^[0-9]+$/.test(value)) return `${name} takes digits only`;
    if (value.length !== full && value.length !== full - 1)
      return `${name} takes ${full - 1} digits, or ${full} with the check digit`;
    if (value.length === full) {
      const expected = gs1CheckDigit(value.slice(0, -1));
      if (Number(value.at(-1)) !== expected)
        return `${name} check digit is wrong: ${value.slice(0, -1)} needs ${expected}, not ${value.at(-1)}`;
    }
  }
  if (format === 'code39' && !/^[0-9A-Z .$/+%-]+$/.test(value))
    return `${name} takes digits, capital letters, space and - . $ / + % only`;
  // Code 128 holds ASCII; bwip-js would send other characters as UTF-8 bytes, which scan as Latin-1.
  if (format === 'code128' && !isAscii(value)) return `${name} takes ASCII characters only`;
  return null;
}

/** bwip-js/BWIPP messages carry an internal prefix ("bwipp.ean13badCheckDigit#6915: "). */
function encoderMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^bwip(?:p|-js)[^:]*:\s*/, '').replace(/\.$/, '');
}

function humanText(format: BarcodeFormat, value: string): string {
  const full = GS1_LENGTHS[format];
  if (full !== undefined && value.length === full - 1) return value + String(gs1CheckDigit(value));
  // Control characters have no glyph; show them as spaces.
  return Array.from(value, (char) => (isControl(char.charCodeAt(0)) ? ' ' : char)).join('');
}

function encodeUncached(format: BarcodeFormat, value: string): EncodedBarcode | string {
  const problem = barcodeValueProblem(format, value);
  if (problem) return problem;
  let raw: unknown;
  try {
    // With includetext BWIPP marks the EAN/UPC guard bars as long (bbs < 0); its text goes unused.
    [raw] = bwipjs.raw({ bcid: format, text: value, includetext: true });
  } catch (error) {
    return `${FORMAT_NAMES[format]}: ${encoderMessage(error)}`;
  }
  if (format === 'datamatrix' || format === 'pdf417') {
    const m = raw as RawMatrix;
    // `pixs` holds one entry per cell; PDF417 rows are drawn taller (pixy counts them 3×), so the
    // cell aspect comes from the symbol's size in inches, rounded so square cells stay square.
    const rows = m.pixs.length / m.pixx;
    return {
      kind: 'matrix',
      cells: Uint8Array.from(m.pixs),
      columns: m.pixx,
      rows,
      cellAspect: Math.round((m.height / rows / (m.width / m.pixx)) * 1e6) / 1e6,
    };
  }
  const l = raw as RawLinear;
  return {
    kind: 'linear',
    widths: l.sbs,
    long: l.bbs.map((bottom) => bottom < 0),
    text: humanText(format, value),
  };
}

/**
 * Encodings by format and value, newest last. A large 2D symbol takes tens of milliseconds to
 * encode; the pre-check and every render of a template ask for the same values again.
 */
const cache = new Map<string, EncodedBarcode | string>();
const CACHE_ENTRIES = 64;

export function encodeBarcode(format: BarcodeFormat, value: string): EncodedBarcode | string {
  const key = `${format}\u0000${value}`;
  const known = cache.get(key);
  if (known !== undefined) {
    cache.delete(key);
    cache.set(key, known);
    return known;
  }
  const encoded = encodeUncached(format, value);
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, encoded);
  return encoded;
}

/**
 * Why the element's value cannot be drawn in its format, or null when it can: the same reason the
 * render fails with, so a pre-check before charging answers exactly as the render would.
 */
export function barcodeProblem(el: Pick<BarcodeElement, 'format' | 'value'>): string | null {
  const encoded = encodeBarcode(el.format, el.value);
  return typeof encoded === 'string' ? `barcode value refused: ${encoded}` : null;
}

/**
 * Whether layout draws the element at all, by layoutElement's rule: hidden ones never fail. A group
 * without a clip draws its children whatever its own size.
 */
function drawn(el: Element): boolean {
  if (!el.visible || el.opacity <= 0) return false;
  const sized = el.width > 0 && el.height > 0;
  return el.type === 'group' ? sized || !el.clip : sized;
}

/**
 * The first barcode of the page, nested ones included, that would be drawn and whose value its
 * format refuses (check digits, characters, capacity): found before anything is charged, by the
 * cheap rules only. Encoding runs in the render process; a value the encoder alone refuses
 * (rare: the rules above mirror its own) fails the render there, and the credit is refunded.
 */
export function pageBarcodeProblem(page: Page): { elementId: string; reason: string } | null {
  for (const { element, ancestors } of walkElements(page.elements)) {
    if (element.type !== 'barcode' || !drawn(element) || !ancestors.every(drawn)) continue;
    const problem = barcodeValueProblem(element.format, element.value);
    if (problem) return { elementId: element.id, reason: `barcode value refused: ${problem}` };
  }
  return null;
}

function cssColor(text: string, fallback: string): string {
  const parsed = parseColor(text);
  return parsed ? toCssRgba(parsed) : fallback;
}

/** Page-unit helpers that land on device pixels. */
function grid(deviceScale: number) {
  return {
    /** A module size rounded down to whole device pixels, when it is at least one. */
    module: (size: number) => {
      const device = size * deviceScale;
      return device >= 1 ? Math.floor(device + 1e-9) / deviceScale : size;
    },
    snap: (value: number) => Math.round(value * deviceScale) / deviceScale,
  };
}

function fill(d: string, paint: string): DrawOp {
  return { op: 'path', d, fill: { paint, alpha: 1, rule: 'nonzero' } };
}

interface TextStyle {
  font: string;
  size: number;
  color: string;
}

function textRun(
  style: TextStyle,
  text: string,
  centreX: number,
  baseline: number,
  env: LayoutEnv,
): TextRunOp {
  const width = env.measurer.width(style.font, text, 0);
  return {
    op: 'text',
    font: style.font,
    color: style.color,
    x: centreX - width / 2,
    y: baseline,
    text,
    direction: 'ltr',
    letterSpacing: 0,
    wordSpacing: 0,
  };
}

function textFont(env: LayoutEnv, size: number): string {
  return fontShorthand(env.fonts, { family: TEXT_FAMILY, weight: 400, style: 'normal', size });
}

/** Centres of the EAN-13/UPC-A digits in modules from the first guard bar, and which are small. */
function gs1DigitCentres(format: 'ean13' | 'upca'): { centre: number; small: boolean }[] {
  const cell = (start: number, i: number) => start + 7 * i + 3.5;
  if (format === 'ean13')
    return [
      { centre: -4.5, small: false },
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ centre: cell(3, i), small: false })),
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ centre: cell(50, i), small: false })),
    ];
  // UPC-A: the first and last digits sit outside the guards, smaller; their bars are guard-long.
  return [
    { centre: -4.5, small: true },
    ...[1, 2, 3, 4, 5].map((i) => ({ centre: cell(3, i), small: false })),
    ...[0, 1, 2, 3, 4].map((i) => ({ centre: cell(50, i), small: false })),
    { centre: 99.5, small: true },
  ];
}

function layoutLinear(
  el: BarcodeElement,
  code: Extract<EncodedBarcode, { kind: 'linear' }>,
  env: LayoutEnv,
  color: string,
): DrawOp[] {
  const px = grid(env.deviceScale);
  const [quietLeft = 0, quietRight = 0] = QUIET[el.format];
  const bearer = el.format === 'itf14' ? ITF_BEARER : 0;
  const codeModules = code.widths.reduce((sum, w) => sum + w, 0);
  const totalModules = bearer + quietLeft + codeModules + quietRight + bearer;
  const m = px.module(el.width / totalModules);
  const left = px.snap(el.x + (el.width - totalModules * m) / 2);
  const codeLeft = left + (bearer + quietLeft) * m;

  const gs1 = el.format === 'ean13' || el.format === 'upca';
  let size = el.showText ? Math.min(TEXT_SIZE_MODULES * m, TEXT_SIZE_HEIGHT_SHARE * el.height) : 0;
  let font = size > 0 ? textFont(env, size) : '';
  if (size > 0 && !gs1) {
    // One centred line: it must fit under the symbol (inside ITF-14's frame).
    const room = (totalModules - 2 * bearer) * m;
    const width = env.measurer.width(font, code.text, 0);
    if (width > room) {
      size *= room / width;
      font = textFont(env, size);
    }
  }
  const descent = size > 0 ? env.measurer.metrics(font).descent : 0;
  const band = size > 0 ? size * (TEXT_GAP_EM + DIGIT_HEIGHT_EM) + descent : 0;
  const top = px.snap(el.y);
  const frameBottom = px.snap(el.y + el.height - band);
  const barsTop = px.snap(top + bearer * m);
  const barsBottom = px.snap(frameBottom - bearer * m);
  if (barsBottom - barsTop <= 0) return [];
  const baseline = frameBottom + size * (TEXT_GAP_EM + DIGIT_HEIGHT_EM);
  const longBottom = px.snap(baseline - (size * DIGIT_HEIGHT_EM) / 2);

  let d = '';
  let x = codeLeft;
  for (let i = 0; i < code.widths.length; i++) {
    const w = (code.widths[i] ?? 0) * m;
    if (i % 2 === 0) {
      const bottom = code.long[i / 2] && size > 0 ? longBottom : barsBottom;
      d += rectPath(x, barsTop, w, bottom - barsTop);
    }
    x += w;
  }
  if (bearer > 0) {
    // The frame: outer rectangle minus inner, as two opposite-wound subpaths.
    const t = bearer * m;
    const w = totalModules * m;
    d += rectPath(left, top, w, frameBottom - top);
    d += `M${num(left + t)} ${num(top + t)}v${num(frameBottom - top - 2 * t)}h${num(w - 2 * t)}v${num(-(frameBottom - top - 2 * t))}Z`;
  }
  const ops: DrawOp[] = [fill(d, color)];
  if (size <= 0) return ops;

  const style = { font, size, color };
  if (!gs1) {
    ops.push(textRun(style, code.text, left + (totalModules * m) / 2, baseline, env));
    return ops;
  }
  const smallStyle = {
    ...style,
    font: textFont(env, (size * UPC_OUTER_TEXT_SIZE_MODULES) / TEXT_SIZE_MODULES),
  };
  const centres = gs1DigitCentres(el.format as 'ean13' | 'upca');
  for (const [i, digit] of [...code.text].entries()) {
    const place = centres[i];
    if (place)
      ops.push(textRun(place.small ? smallStyle : style, digit, codeLeft + place.centre * m, baseline, env));
  }
  return ops;
}

/** Path data for the dark cells of a 2D symbol, one subpath per horizontal run. */
function matrixPath(
  code: Extract<EncodedBarcode, { kind: 'matrix' }>,
  x0: number,
  y0: number,
  cellWidth: number,
  cellHeight: number,
): string {
  const parts: string[] = [];
  for (let row = 0; row < code.rows; row++) {
    let col = 0;
    while (col < code.columns) {
      if (!code.cells[row * code.columns + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < code.columns && code.cells[row * code.columns + col]) col++;
      parts.push(
        rectPath(x0 + start * cellWidth, y0 + row * cellHeight, (col - start) * cellWidth, cellHeight),
      );
    }
  }
  return parts.join('');
}

function layoutMatrix(
  el: BarcodeElement,
  code: Extract<EncodedBarcode, { kind: 'matrix' }>,
  env: LayoutEnv,
  color: string,
): DrawOp[] {
  const px = grid(env.deviceScale);
  const quiet = QUIET[el.format][0] ?? 0;
  const widthModules = code.columns + 2 * quiet;
  const heightModules = code.rows * code.cellAspect + 2 * quiet;
  const m = px.module(Math.min(el.width / widthModules, el.height / heightModules));
  const cellHeight = m * code.cellAspect;
  const x0 = px.snap(el.x + (el.width - widthModules * m) / 2 + quiet * m);
  const y0 = px.snap(el.y + (el.height - code.rows * cellHeight - 2 * quiet * m) / 2 + quiet * m);
  const d = matrixPath(code, x0, y0, m, cellHeight);
  return d ? [fill(d, color)] : [];
}

/**
 * The element's background and symbol. Throws LayoutFailure (code BARCODE_INVALID) for a value the
 * format refuses, so the render fails instead of drawing something that scans differently.
 */
export function layoutBarcode(el: BarcodeElement, env: LayoutEnv): DrawOp[] {
  const problem = barcodeProblem(el);
  if (problem) throw new LayoutFailure(problem, BARCODE_FAILURE_CODE);
  const code = encodeBarcode(el.format, el.value) as EncodedBarcode;
  const background = fill(
    rectPath(el.x, el.y, el.width, el.height),
    cssColor(el.background, 'rgba(255, 255, 255, 1)'),
  );
  const color = cssColor(el.color, 'rgba(0, 0, 0, 1)');
  const symbol =
    code.kind === 'linear' ? layoutLinear(el, code, env, color) : layoutMatrix(el, code, env, color);
  return [background, ...symbol];
}
