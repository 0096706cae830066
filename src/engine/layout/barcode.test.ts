/**
 * Barcode layout: which values each format refuses (and why), and the geometry drawn for the rest —
 * bar widths exactly the encoder's modules times a whole-device-pixel module, quiet zones kept,
 * digits as text runs. Decoding the drawn result with real scanners is in goldens/barcode.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type BarcodeElement, type DesignDocument, parseDesignDocument } from '../../design/index.ts';
import { testLayoutEnv } from '../goldens/layout-env.ts';
import {
  BARCODE_FAILURE_CODE,
  barcodeProblem,
  encodeBarcode,
  gs1CheckDigit,
  layoutBarcode,
} from './barcode.ts';
import { LayoutFailure } from './failure.ts';
import { layoutPage } from './page.ts';
import type { DrawOp, PathOp, TextRunOp } from './types.ts';

function documentWith(elements: Record<string, unknown>[]): DesignDocument {
  const parsed = parseDesignDocument({
    schemaVersion: 2,
    pages: [{ id: 'p1', width: 600, height: 400, elements }],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.document;
}

function barcode(format: BarcodeElement['format'], value: string, extra: Record<string, unknown> = {}) {
  const [el] =
    documentWith([
      { id: 'code', type: 'barcode', format, value, x: 20, y: 30, width: 400, height: 160, ...extra },
    ]).pages[0]?.elements ?? [];
  return el as BarcodeElement;
}

/** The rectangles of path data made by rectPath (`M x y h w v h h -w Z`). */
function rects(d: string): { x: number; y: number; w: number; h: number }[] {
  return [...d.matchAll(/M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)v(-?[\d.]+)h-?[\d.]+Z/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    w: Number(m[3]),
    h: Number(m[4]),
  }));
}

const paths = (ops: DrawOp[]) => ops.filter((op): op is PathOp => op.op === 'path');
const texts = (ops: DrawOp[]) => ops.filter((op): op is TextRunOp => op.op === 'text');

describe('barcodeProblem', () => {
  it('accepts a good value in every format', () => {
    const good: [BarcodeElement['format'], string][] = [
      ['code128', 'Order #25/b'],
      ['ean13', '5901234123457'],
      ['upca', '036000291452'],
      ['code39', 'PLATEN-25 $/+%.'],
      ['itf14', '10012345678902'],
      ['datamatrix', 'Grüße ✓ 25 😀'],
      ['pdf417', 'Ticket 25 — Row B'],
    ];
    for (const [format, value] of good) expect(barcodeProblem({ format, value }), format).toBeNull();
  });

  it('adds the GS1 check digit to a value given without it', () => {
    expect(gs1CheckDigit('590123412345')).toBe(7);
    expect(gs1CheckDigit('03600029145')).toBe(2);
    expect(gs1CheckDigit('1001234567890')).toBe(2);
    for (const [format, value, text] of [
      ['ean13', '590123412345', '5901234123457'],
      ['upca', '03600029145', '036000291452'],
      ['itf14', '1001234567890', '10012345678902'],
    ] as const) {
      const encoded = encodeBarcode(format, value);
      expect(typeof encoded === 'object' && encoded.kind === 'linear' && encoded.text).toBe(text);
    }
  });

  it('refuses a wrong check digit, naming the right one, instead of correcting it', () => {
    expect(barcodeProblem({ format: 'ean13', value: '5901234123458' })).toBe(
      'barcode value refused: EAN-13 check digit is wrong: 590123412345 needs 7, not 8',
    );
    expect(barcodeProblem({ format: 'upca', value: '036000291453' })).toMatch(/UPC-A check digit is wrong/);
    expect(barcodeProblem({ format: 'itf14', value: '10012345678903' })).toMatch(
      /ITF-14 check digit is wrong/,
    );
  });

  it('refuses letters, spaces and wrong lengths in GS1 formats', () => {
    expect(barcodeProblem({ format: 'ean13', value: '59012341234A' })).toBe(
      'barcode value refused: EAN-13 takes digits only',
    );
    // bwip-js itself would drop the space and draw 5901234123457.
    expect(barcodeProblem({ format: 'ean13', value: '5901234123457 ' })).toMatch(/digits only/);
    expect(barcodeProblem({ format: 'itf14', value: '1 0012345678902' })).toMatch(/digits only/);
    expect(barcodeProblem({ format: 'ean13', value: '59012341234' })).toMatch(
      /12 digits, or 13 with the check digit/,
    );
    expect(barcodeProblem({ format: 'upca', value: '0360002914' })).toMatch(/11 digits, or 12/);
  });

  it('refuses characters a linear format cannot hold, rather than drawing other ones', () => {
    expect(barcodeProblem({ format: 'code39', value: 'abc' })).toMatch(
      /Code 39 takes digits, capital letters/,
    );
    expect(barcodeProblem({ format: 'code39', value: 'A*B' })).toMatch(/Code 39/);
    // bwip-js would encode é as the UTF-8 bytes C3 A9, which a scanner reads as "Ã©".
    expect(barcodeProblem({ format: 'code128', value: 'café' })).toBe(
      'barcode value refused: Code 128 takes ASCII characters only',
    );
    expect(barcodeProblem({ format: 'datamatrix', value: 'half \uD800 pair' })).toMatch(/not valid Unicode/);
  });

  it('refuses a value too long for the symbol by its byte count, before encoding', () => {
    expect(barcodeProblem({ format: 'datamatrix', value: 'é'.repeat(1000) })).toBe(
      'barcode value refused: Data Matrix holds at most 1556 bytes of text',
    );
    expect(barcodeProblem({ format: 'pdf417', value: 'aB1;'.repeat(400) })).toBe(
      'barcode value refused: PDF417 holds at most 900 bytes of text',
    );
    expect(barcodeProblem({ format: 'code128', value: 'x'.repeat(501) })).toBe(
      'barcode value refused: Code 128 holds at most 500 bytes of text',
    );
    // Right at each bound the encoder agrees: the bounds never refuse what it could draw.
    for (const [format, value] of [
      ['datamatrix', 'é'.repeat(778)],
      ['pdf417', 'aB1;'.repeat(225)],
      ['code128', 'x'.repeat(500)],
      ['code39', 'X'.repeat(500)],
    ] as const)
      expect(barcodeProblem({ format, value }), format).toBeNull();
  });
});

describe('the schema', () => {
  it('refuses a 100 KB barcode value with a path, before any encoding', () => {
    const parsed = parseDesignDocument({
      schemaVersion: 2,
      pages: [
        {
          id: 'p1',
          width: 600,
          height: 400,
          elements: [
            {
              id: 'code',
              type: 'barcode',
              format: 'code128',
              value: 'x'.repeat(100_000),
              width: 300,
              height: 100,
            },
          ],
        },
      ],
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((issue) => issue.path)).toContain('pages[0].elements[0].value');
  });
});

describe('layoutBarcode', () => {
  const env = testLayoutEnv();

  it('throws a BARCODE_INVALID layout failure, and the page fails on that element', () => {
    const bad = barcode('ean13', '5901234123458');
    let failure: unknown;
    try {
      layoutBarcode(bad, env);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(LayoutFailure);
    expect((failure as LayoutFailure).code).toBe(BARCODE_FAILURE_CODE);
    const page = documentWith([
      { id: 'ok', type: 'barcode', format: 'code128', value: 'fine', x: 0, y: 0, width: 200, height: 80 },
      { id: 'bad', type: 'barcode', format: 'ean13', value: 'ABC', x: 0, y: 100, width: 200, height: 80 },
    ]).pages[0];
    if (!page) throw new Error('no page');
    const result = layoutPage(page, env);
    expect(result).toEqual({
      ok: false,
      elementId: 'bad',
      reason: 'barcode value refused: EAN-13 takes digits only',
      code: BARCODE_FAILURE_CODE,
    });
  });

  it('draws the background, every bar in one path and the 13 digits of an EAN-13', () => {
    const el = barcode('ean13', '590123412345', { color: '#112233', background: '#fffbeb' });
    const ops = layoutBarcode(el, env);
    const [background, bars, ...rest] = paths(ops);
    expect(rest).toEqual([]);
    expect(background?.fill?.paint).toBe('rgba(255, 251, 235, 1)');
    expect(rects(background?.d ?? '')).toEqual([{ x: 20, y: 30, w: 400, h: 160 }]);
    expect(bars?.fill?.paint).toBe('rgba(17, 34, 51, 1)');
    const runs = texts(ops);
    expect(runs.map((run) => run.text).join('')).toBe('5901234123457');
    for (const run of runs) {
      expect(run.font).toContain('"DejaVu Sans Mono"');
      expect(run.color).toBe('rgba(17, 34, 51, 1)');
    }
  });

  it('draws bars exactly the encoded widths on whole device pixels, inside the quiet zones', () => {
    for (const deviceScale of [1, 2, 3]) {
      const el = barcode('ean13', '5901234123457');
      const bars = rects(paths(layoutBarcode(el, { ...env, deviceScale }))[1]?.d ?? '');
      const encoded = encodeBarcode('ean13', '5901234123457');
      if (typeof encoded === 'string' || encoded.kind !== 'linear') throw new Error(encoded.toString());
      const barWidths = encoded.widths.filter((_, i) => i % 2 === 0);
      expect(bars).toHaveLength(barWidths.length);
      // 113 modules (11 + 95 + 7) in 400 units: 3.54 → 3 whole device pixels at scale 1.
      const module = Math.floor((400 / 113) * deviceScale) / deviceScale;
      bars.forEach((bar, i) => {
        expect(bar.w).toBeCloseTo((barWidths[i] ?? 0) * module, 3);
        const device = bar.x * deviceScale;
        expect(Math.abs(device - Math.round(device))).toBeLessThan(1e-3);
      });
      const first = bars[0];
      const last = bars.at(-1);
      if (!first || !last) throw new Error('no bars');
      expect(first.x - 20).toBeGreaterThanOrEqual(11 * module - 1e-6);
      expect(420 - (last.x + last.w)).toBeGreaterThanOrEqual(7 * module - 1e-6);
      // Guard bars reach down into the digits; the others stop above them.
      expect(first.h).toBeGreaterThan((bars[3]?.h ?? 0) + 1);
    }
  });

  it('fills the height with bars and keeps the text inside the box', () => {
    const el = barcode('code128', 'Order 25', { height: 200 });
    const ops = layoutBarcode(el, env);
    const bars = rects(paths(ops)[1]?.d ?? '');
    const [run] = texts(ops);
    if (!run) throw new Error('no text');
    expect(run.text).toBe('Order 25');
    for (const bar of bars) {
      expect(bar.y).toBe(30);
      expect(bar.y + bar.h).toBeLessThan(run.y);
    }
    const metrics = env.measurer.metrics(run.font);
    expect(run.y + metrics.descent).toBeLessThanOrEqual(230 + 1e-6);
    expect(bars[0]?.h).toBeGreaterThan(200 * 0.6);
  });

  it('leaves the text out when showText is false, and for 2D symbols', () => {
    expect(texts(layoutBarcode(barcode('code39', 'ABC', { showText: false }), env))).toEqual([]);
    expect(texts(layoutBarcode(barcode('datamatrix', 'ABC'), env))).toEqual([]);
    expect(texts(layoutBarcode(barcode('pdf417', 'ABC'), env))).toEqual([]);
  });

  it('frames ITF-14 in bearer bars and fits long Code 128 text to the symbol width', () => {
    const itf = rects(paths(layoutBarcode(barcode('itf14', '1001234567890'), env))[1]?.d ?? '');
    // The frame's outer rectangle (its inner one is wound the other way): 4 modules of bearer and
    // 10 of quiet zone on either side of the bars, which start with a narrow (1-module) bar.
    const frame = itf.reduce((widest, r) => (r.w > widest.w ? r : widest));
    const bars = itf.filter((r) => r !== frame);
    const module = Math.min(...bars.map((r) => r.w));
    expect(Math.min(...bars.map((r) => r.x)) - frame.x).toBeCloseTo(14 * module, 6);
    // The encoding ends with a 1-module space after the stop bar.
    expect(frame.x + frame.w - Math.max(...bars.map((r) => r.x + r.w))).toBeCloseTo(15 * module, 6);
    expect(Math.min(...bars.map((r) => r.y)) - frame.y).toBeCloseTo(4 * module, 6);
    const long = barcode('code128', 'A'.repeat(20), { width: 300 });
    const [run] = texts(layoutBarcode(long, env));
    if (!run) throw new Error('no text');
    expect(env.measurer.width(run.font, run.text, 0)).toBeLessThanOrEqual(300 + 1e-6);
  });

  it('contains a 2D symbol, centred, with square cells on whole device pixels', () => {
    const el = barcode('datamatrix', 'Platen', { width: 300, height: 100 });
    const d = paths(layoutBarcode(el, env))[1]?.d ?? '';
    const cells = rects(d);
    const minX = Math.min(...cells.map((c) => c.x));
    const maxX = Math.max(...cells.map((c) => c.x + c.w));
    const minY = Math.min(...cells.map((c) => c.y));
    const maxY = Math.max(...cells.map((c) => c.y + c.h));
    expect(maxY - minY).toBeCloseTo(maxX - minX, 6);
    expect(maxY - minY).toBeLessThanOrEqual(100);
    const module = cells[0]?.h ?? 0;
    expect(Number.isInteger(module)).toBe(true);
    expect((minX + maxX) / 2).toBeCloseTo(20 + 150, 0);
    expect((minY + maxY) / 2).toBeCloseTo(30 + 50, 0);
  });

  it('draws PDF417 rows three modules tall', () => {
    const el = barcode('pdf417', 'Ticket 25', { width: 400, height: 300 });
    const cells = rects(paths(layoutBarcode(el, env))[1]?.d ?? '');
    const module = Math.min(...cells.map((c) => c.w));
    expect(new Set(cells.map((c) => c.h))).toEqual(new Set([module * 3]));
  });
});
