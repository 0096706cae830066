/**
 * The render cost rule over the inputs an attacker holding a key would try (each found by review:
 * before this rule they were charged and then ran for tens of seconds or failed): PDF effects
 * weighed at the PDF layer scale, many large barcodes, auto-fit over many span sizes, content
 * under nested effect groups, effects on zero-size unclipped groups, image filters, and a barcode
 * hidden in a zero-size group that the pre-charge check must still see.
 */
import { describe, expect, it } from 'vitest';
import { type DesignDocument, type Page, parseDesignDocument } from '../design/index.ts';
import { renderCostProblem } from './cost-limits.ts';
import { pageBarcodeProblem } from './layout/barcode.ts';

function page(width: number, height: number, elements: unknown[]): Page {
  const parsed = parseDesignDocument({ schemaVersion: 2, pages: [{ id: 'p', width, height, elements }] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return (parsed.document as DesignDocument).pages[0] as Page;
}

const rect = (id: string, size: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'rect',
  x: 0,
  y: 0,
  width: size,
  height: size,
  ...extra,
});

function nest(depth: number, inner: unknown[], extra: Record<string, unknown>): unknown {
  let children = inner;
  for (let i = 0; i < depth; i++)
    children = [
      { id: `g${i}`, type: 'group', x: 0, y: 0, width: 100, height: 100, elements: children, ...extra },
    ];
  return children[0];
}

describe('renderCostProblem', () => {
  it('weighs PDF effects at the PDF layer scale, not at one pixel a unit', () => {
    const shadows = Array.from({ length: 46 }, (_, i) =>
      rect(`r${i}`, 2040, { shadow: { color: '#000000', blur: 1 } }),
    );
    const p = page(10_000, 5000, shadows);
    expect(renderCostProblem([p], 'png', 1)).toBeNull();
    expect(renderCostProblem([p], 'pdf', 1)?.reason).toBe('effects too costly');
  });

  it('adds effects up across the pages of one render', () => {
    const p = page(4000, 4000, [rect('r', 4000, { blur: 2 })]);
    expect(renderCostProblem([p], 'png', 1)).toBeNull();
    expect(
      renderCostProblem(
        Array.from({ length: 14 }, () => p),
        'png',
        1,
      )?.reason,
    ).toBe('effects too costly');
  });

  it('bounds the bytes barcodes make the encoder work through', () => {
    const codes = Array.from({ length: 20 }, (_, i) => ({
      id: `b${i}`,
      type: 'barcode',
      x: 0,
      y: 0,
      width: 48,
      height: 38,
      format: 'datamatrix',
      value: `${i}`.padEnd(1500, 'x'),
    }));
    expect(renderCostProblem([page(1000, 1000, codes)], 'png', 1)?.reason).toBe('barcodes too costly');
  });

  it('bounds auto-fit over many distinct span sizes', () => {
    const spans = Array.from({ length: 1000 }, (_, i) => ({ text: `word${i} `, fontSize: 1 + i }));
    const text = {
      id: 't',
      type: 'text',
      x: 0,
      y: 0,
      width: 50,
      height: 50,
      fontSize: 2000,
      minFontSize: 1,
      autoFit: 'shrink',
      spans,
    };
    expect(renderCostProblem([page(100, 100, [text])], 'png', 1)?.reason).toBe('auto-fit too costly');
    expect(renderCostProblem([page(100, 100, [{ ...text, autoFit: 'none' }])], 'png', 1)).toBeNull();
  });

  it('counts content drawn again under nested groups with effects', () => {
    const texts = Array.from({ length: 20 }, (_, i) => ({
      id: `t${i}`,
      type: 'text',
      x: 0,
      y: 0,
      width: 100,
      height: 100,
      fontSize: 1,
      text: 'x'.repeat(9000),
    }));
    const shadowed = { shadow: { color: '#00000088', blur: 0, offsetX: 1, offsetY: 1 } };
    expect(renderCostProblem([page(100, 100, [nest(8, texts, shadowed)])], 'png', 1)?.reason).toBe(
      'effect groups too costly',
    );
    expect(renderCostProblem([page(100, 100, [nest(2, texts, shadowed)])], 'png', 1)).toBeNull();
  });

  it('weighs an unclipped zero-size group by what its children draw', () => {
    const zero = { width: 0, height: 0, blur: 0.5 };
    const p = page(7000, 7000, [nest(8, [rect('r', 7000)], zero)]);
    expect(renderCostProblem([p], 'png', 1)?.reason).toBe('effects too costly');
  });

  it('counts every image filter, not only blur', () => {
    const images = Array.from({ length: 20 }, (_, i) => ({
      id: `i${i}`,
      type: 'image',
      x: 0,
      y: 0,
      width: 7000,
      height: 7000,
      src: 'asset:a',
      filters: { brightness: 1.5 },
    }));
    expect(renderCostProblem([page(7000, 7000, images)], 'png', 1)?.reason).toBe('effects too costly');
  });
});

describe('pageBarcodeProblem', () => {
  it('sees a barcode inside a zero-size group without a clip, which layout draws', () => {
    const code = {
      id: 'b',
      type: 'barcode',
      x: 0,
      y: 0,
      width: 100,
      height: 60,
      format: 'ean13',
      value: '4006381333932',
    };
    const group = { id: 'g', type: 'group', x: 0, y: 0, width: 0, height: 0, elements: [code] };
    expect(pageBarcodeProblem(page(200, 200, [group]))?.elementId).toBe('b');
    expect(pageBarcodeProblem(page(200, 200, [{ ...group, clip: true }]))).toBeNull();
  });
});
