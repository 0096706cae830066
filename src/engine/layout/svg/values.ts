/**
 * SVG attribute values the vector path understands: lengths (user units and px only), numbers
 * lists, colours (document syntaxes plus common names and currentColor), paints (none, colour,
 * url(#id)) and transform lists. Anything else throws SvgUnsupported, which makes the caller fall
 * back to rasterising the whole SVG rather than draw it wrong.
 */
import { parseColor, type Rgba } from '../../../design/index.ts';
import { multiply } from '../geometry.ts';
import type { Matrix } from '../types.ts';

/** Markup the vector path does not draw; the SVG is rasterised instead (docs/rendering.md). */
export class SvgUnsupported extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SvgUnsupported';
  }
}

const NAMED: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  blue: '#0000ff',
  yellow: '#ffff00',
  orange: '#ffa500',
  purple: '#800080',
  gray: '#808080',
  grey: '#808080',
  silver: '#c0c0c0',
  maroon: '#800000',
  navy: '#000080',
  teal: '#008080',
  olive: '#808000',
  lime: '#00ff00',
  aqua: '#00ffff',
  cyan: '#00ffff',
  fuchsia: '#ff00ff',
  magenta: '#ff00ff',
  pink: '#ffc0cb',
  brown: '#a52a2a',
  gold: '#ffd700',
};

export function parseSvgColor(text: string, current: Rgba): Rgba {
  const value = text.trim();
  if (value.toLowerCase() === 'currentcolor') return current;
  const parsed = parseColor(NAMED[value.toLowerCase()] ?? value);
  if (!parsed) throw new SvgUnsupported(`colour ${value.slice(0, 40)}`);
  return parsed;
}

export type SvgPaint = { kind: 'none' } | { kind: 'color'; color: Rgba } | { kind: 'ref'; id: string };

export function parsePaint(text: string, current: Rgba): SvgPaint {
  const value = text.trim();
  if (value === 'none') return { kind: 'none' };
  const ref = /^url\(\s*['"]?#([^'")\s]+)['"]?\s*\)/.exec(value);
  if (ref?.[1]) return { kind: 'ref', id: ref[1] };
  return { kind: 'color', color: parseSvgColor(value, current) };
}

/** A length in user units; percentages and absolute units other than px are not supported. */
export function parseLength(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const match = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(px)?\s*$/i.exec(text);
  if (!match?.[1]) throw new SvgUnsupported(`length ${text.slice(0, 40)}`);
  return Number(match[1]);
}

/** A number or percentage as a fraction (gradient offsets, objectBoundingBox coordinates). */
export function parseFraction(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = text.trim();
  const number = Number.parseFloat(value);
  if (!Number.isFinite(number)) throw new SvgUnsupported(`number ${value.slice(0, 40)}`);
  return value.endsWith('%') ? number / 100 : number;
}

export function parseNumberList(text: string): number[] {
  const parts = text
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  return parts.map((part) => {
    const value = Number(part.replace(/px$/i, ''));
    if (!Number.isFinite(value)) throw new SvgUnsupported(`number list ${text.slice(0, 40)}`);
    return value;
  });
}

function transformStep(name: string, args: number[]): Matrix {
  const [a = 0, b, c, d = 0, e = 0, f = 0] = args;
  switch (name) {
    case 'matrix':
      if (args.length !== 6) break;
      return [a, b ?? 0, c ?? 0, d, e, f];
    case 'translate':
      return [1, 0, 0, 1, a, b ?? 0];
    case 'scale':
      return [a, 0, 0, b ?? a, 0, 0];
    case 'rotate': {
      const r = (a * Math.PI) / 180;
      const [cos, sin] = [Math.cos(r), Math.sin(r)];
      const [cx, cy] = [b ?? 0, c ?? 0];
      return [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy];
    }
    case 'skewX':
      return [1, 0, Math.tan((a * Math.PI) / 180), 1, 0, 0];
    case 'skewY':
      return [1, Math.tan((a * Math.PI) / 180), 0, 1, 0, 0];
  }
  throw new SvgUnsupported(`transform ${name}`);
}

export function parseTransform(text: string | undefined): Matrix | null {
  if (text === undefined || text.trim() === '') return null;
  let result: Matrix = [1, 0, 0, 1, 0, 0];
  const step = /\s*,?\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)/gy;
  let consumed = 0;
  for (let match = step.exec(text); match !== null; match = step.exec(text)) {
    result = multiply(result, transformStep(match[1] ?? '', parseNumberList(match[2] ?? '')));
    consumed = step.lastIndex;
  }
  if (text.slice(consumed).trim() !== '') throw new SvgUnsupported(`transform ${text.slice(0, 40)}`);
  return result;
}

/** Inline `style` declarations; they win over presentation attributes. */
export function parseStyleAttribute(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!text) return out;
  for (const declaration of text.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon <= 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    out[name] = declaration
      .slice(colon + 1)
      .replace(/!important/i, '')
      .trim();
  }
  return out;
}
