import { describe, expect, it } from 'vitest';
import type { Element, TextElement } from './elements.ts';
import { promoCard } from './fixtures/documents.ts';
import {
  nearestAnchor,
  readableFloor,
  resizeDocument,
  resizeElement,
  resizePage,
  rotatedBounds,
} from './resize.ts';
import type { Page } from './schema.ts';
import { parseDesignDocument } from './validate.ts';

function parsedPromo() {
  const parsed = parseDesignDocument(promoCard());
  if (!parsed.ok) throw new Error('fixture is invalid');
  return parsed.document;
}

function page(elements: unknown[], width = 1000, height = 1000): Page {
  const parsed = parseDesignDocument({ schemaVersion: 1, pages: [{ id: 'p', width, height, elements }] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const [first] = parsed.document.pages;
  if (!first) throw new Error('no page');
  return first;
}

function only(p: Page): Element {
  const [el] = p.elements;
  if (!el) throw new Error('no element');
  return el;
}

const rect = (x: number, y: number, width: number, height: number, extra = {}) => ({
  id: 'r',
  type: 'rect',
  x,
  y,
  width,
  height,
  ...extra,
});

describe('smart resize', () => {
  it('produces documents the schema accepts, for several target sizes', () => {
    for (const size of [
      { width: 1080, height: 1920 },
      { width: 1200, height: 628 },
      { width: 300, height: 250 },
      { width: 4000, height: 4000 },
    ]) {
      const resized = resizeDocument(parsedPromo(), size);
      const reparsed = parseDesignDocument(resized);
      expect(reparsed.ok, JSON.stringify(size)).toBe(true);
      for (const p of resized.pages) expect([p.width, p.height]).toEqual([size.width, size.height]);
    }
  });

  it('keeps ids, so a new template keeps its named elements', () => {
    const doc = parsedPromo();
    const resized = resizeDocument(doc, { width: 1200, height: 628 });
    expect(resized.pages.map((p) => p.elements.map((e) => e.id))).toEqual(
      doc.pages.map((p) => p.elements.map((e) => e.id)),
    );
  });

  it('scales sizes uniformly by the smaller factor and anchors to the nearest edge', () => {
    // 1000×1000 → 2000×1000: the uniform factor is 1.
    const topLeft = only(resizePage(page([rect(50, 50, 100, 100)]), { width: 2000, height: 1000 }));
    expect([topLeft.x, topLeft.y, topLeft.width, topLeft.height]).toEqual([50, 50, 100, 100]);
    const bottomRight = only(resizePage(page([rect(850, 850, 100, 100)]), { width: 2000, height: 1000 }));
    expect([bottomRight.x, bottomRight.y]).toEqual([1850, 850]);
    const centred = only(resizePage(page([rect(450, 100, 100, 100)]), { width: 2000, height: 1000 }));
    expect(centred.x).toBe(950);
    // 1000×1000 → 500×2000: the factor is 0.5; a bottom-right element keeps a halved margin.
    const small = only(resizePage(page([rect(850, 850, 100, 100)]), { width: 500, height: 2000 }));
    expect([small.x, small.y, small.width, small.height]).toEqual([425, 1925, 50, 50]);
  });

  it('stretches full-bleed elements along the axis they span, but not a QR code', () => {
    const band = only(resizePage(page([rect(0, 0, 1000, 300)]), { width: 1200, height: 628 }));
    expect([band.x, band.width]).toEqual([0, 1200]);
    expect(band.height).toBeCloseTo(300 * 0.628, 1);
    const qr = only(
      resizePage(page([{ id: 'q', type: 'qr', x: 0, y: 0, width: 1000, height: 1000, value: 'x' }]), {
        width: 1200,
        height: 628,
      }),
    );
    expect(qr.width).toBe(qr.height);
    expect(qr.width).toBeCloseTo(628, 0);
    expect(qr.x).toBeCloseTo(286, 0);
  });

  it('anchors rotated elements by their drawn bounds and keeps the rotation', () => {
    const el = rect(800, 100, 100, 100, { rotation: 45 });
    const b = rotatedBounds({ ...el, rotation: 45 });
    expect(b.maxX - b.minX).toBeCloseTo(141.42, 1);
    const out = only(resizePage(page([el]), { width: 2000, height: 1000 }));
    expect(out.rotation).toBe(45);
    // Right-anchored: the gap to the right edge (about 29.3) is kept.
    const ob = rotatedBounds(out);
    expect(2000 - ob.maxX).toBeCloseTo(1000 - b.maxX, 1);
    expect(out.width).toBe(100);
  });

  it('scales lines, including ones pointing up and left, with their stroke', () => {
    const line = { id: 'l', type: 'line', x: 900, y: 900, width: -200, height: -100, strokeWidth: 10 };
    const out = only(resizePage(page([line]), { width: 500, height: 500 }));
    expect(out.type).toBe('line');
    expect([out.x, out.y, out.width, out.height]).toEqual([450, 450, -100, -50]);
    if (out.type === 'line') expect(out.strokeWidth).toBe(5);
    const divider = only(
      resizePage(page([{ id: 'd', type: 'line', x: 0, y: 500, width: 1000, height: 0 }]), {
        width: 1200,
        height: 628,
      }),
    );
    expect([divider.x, divider.width]).toEqual([0, 1200]);
  });

  it('keeps text readable: scaled, never below the floor, and auto-fitting', () => {
    const text = (fontSize: number) => ({
      id: 't',
      type: 'text',
      x: 100,
      y: 100,
      width: 400,
      height: 100,
      text: 'Hello',
      fontSize,
    });
    const target = { width: 200, height: 200 };
    const big = only(resizePage(page([text(100)]), target)) as TextElement;
    expect(big.fontSize).toBe(20);
    expect(big.autoFit).toBe('shrink');
    const body = only(resizePage(page([text(30)]), target)) as TextElement;
    expect(body.fontSize).toBe(readableFloor(30, target));
    expect(body.fontSize).toBeGreaterThanOrEqual(12);
    expect(body.minFontSize).toBeLessThanOrEqual(body.fontSize);
    // Text already below the floor is never made larger than it was.
    const tiny = only(resizePage(page([text(8)]), target)) as TextElement;
    expect(tiny.fontSize).toBe(8);
    // A large page raises the floor.
    expect(readableFloor(100, { width: 4000, height: 4000 })).toBe(64);
    expect(readableFloor(40, { width: 4000, height: 4000 })).toBe(40);
  });

  it('finds the nearest anchor per axis, and leaves an element alone at the same size', () => {
    expect(nearestAnchor(0, 100, 1000)).toBe('start');
    expect(nearestAnchor(900, 1000, 1000)).toBe('end');
    expect(nearestAnchor(400, 600, 1000)).toBe('center');
    const el = only(page([rect(0, 0, 10, 10)]));
    expect(resizeElement(el, { width: 1000, height: 1000 }, { width: 1000, height: 1000 })).toEqual(el);
  });
});

describe('smart resize of grouped elements', () => {
  it('keeps an element drawn inside a card inside the card', () => {
    const p = page(
      [
        { id: 'card', type: 'rect', x: 60, y: 560, width: 960, height: 460 },
        { id: 'body', type: 'text', x: 110, y: 810, width: 620, height: 150, text: 'Body', fontSize: 30 },
      ],
      1080,
      1080,
    );
    const [card, body] = resizePage(p, { width: 1200, height: 628 }).elements;
    if (!card || !body) throw new Error('missing');
    expect(body.x).toBeGreaterThanOrEqual(card.x);
    expect(body.x + body.width).toBeLessThanOrEqual(card.x + card.width + 0.01);
    expect(body.y + body.height).toBeLessThanOrEqual(card.y + card.height + 0.01);
  });
});
