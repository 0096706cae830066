/**
 * Rich text in PDF, checked with poppler: the words of every span come out of pdftotext in reading
 * order (spans stay real, selectable text), and a span's `link` is a real link annotation: pdfinfo
 * lists its URL, and its rectangle (read from the PDF) covers the linked words as pdftotext -bbox
 * places them, one annotation per line the link wraps over. Skipped, with the reason, when
 * poppler-utils is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderInProcess } from '../render.ts';
import { jobFor } from './harness.ts';
import { richDocument } from './rich-text-documents.ts';

const POPPLER = existsSync('/usr/bin/pdftotext') && existsSync('/usr/bin/pdfinfo');
const reason = 'poppler-utils is not installed (apt-get install poppler-utils)';

const TERMS = 'https://example.com/terms';
const HELP = 'mailto:help@example.com';

const spans = [
  { text: 'Please read the ' },
  { text: 'terms of service and the privacy notice', link: TERMS, underline: true, color: '#2563eb' },
  { text: ' before you ' },
  { text: 'sign', fontWeight: 700 },
  { text: 'ing', fontStyle: 'italic' },
  { text: ' up. Questions? ' },
  { text: 'Write to us', link: HELP, fontSize: 22 },
  { text: ' any time.', background: '#fde68a' },
];

const doc = richDocument({
  width: 400,
  height: 220,
  background: '#ffffff',
  elements: [
    {
      id: 'body',
      type: 'text',
      x: 20,
      y: 20,
      width: 300,
      height: 180,
      fontSize: 18,
      fontFamily: 'Open Sans',
      spans,
    },
  ],
});

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8' });
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Link annotations as written in the file: /Rect in PDF points (origin bottom left) and /URI. */
function linkAnnotations(pdf: Buffer, pageHeight: number): { url: string; rect: Rect }[] {
  const text = pdf.toString('latin1');
  const found: { url: string; rect: Rect }[] = [];
  for (const match of text.matchAll(/\/Subtype\s*\/Link[\s\S]*?endobj/g)) {
    const body = match[0];
    const rect = /\/Rect\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]/.exec(body);
    const uri = /\/URI\s*\(([^)]*)\)/.exec(body);
    if (!rect || !uri) continue;
    const [x1, y1, x2, y2] = rect.slice(1, 5).map(Number) as [number, number, number, number];
    found.push({
      url: uri[1] ?? '',
      rect: {
        left: Math.min(x1, x2),
        right: Math.max(x1, x2),
        top: pageHeight - Math.max(y1, y2),
        bottom: pageHeight - Math.min(y1, y2),
      },
    });
  }
  return found;
}

/** Word boxes from pdftotext -bbox (top-left origin, points). */
function wordBoxes(path: string): { word: string; box: Rect }[] {
  const html = run('pdftotext', ['-bbox', path, '-']);
  return Array.from(
    html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
    (m) => ({
      word: m[5] ?? '',
      box: { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) },
    }),
  );
}

/** The word's centre lies inside the rectangle (poppler's word boxes are a little taller). */
function covers(rect: Rect, box: Rect): boolean {
  const cx = (box.left + box.right) / 2;
  const cy = (box.top + box.bottom) / 2;
  return cx >= rect.left && cx <= rect.right && cy >= rect.top && cy <= rect.bottom;
}

describe.skipIf(!POPPLER)(`rich text in PDF (poppler checks${POPPLER ? '' : `: skipped, ${reason}`})`, () => {
  it('keeps every span selectable, in order, with its links as annotations covering the span', async () => {
    const [pdf] = await renderInProcess(jobFor(doc, 'pdf'));
    const bytes = Buffer.from(pdf?.bytes ?? new Uint8Array());
    const dir = mkdtempSync(join(tmpdir(), 'platen-rich-pdf-'));
    const path = join(dir, 'rich.pdf');
    writeFileSync(path, bytes);

    const text = run('pdftotext', [path, '-']).replace(/\s+/g, ' ').trim();
    const expected = spans
      .map((span) => span.text)
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    expect(text).toBe(expected);

    const urls = run('pdfinfo', ['-url', path]);
    expect(urls).toContain(TERMS);
    expect(urls).toContain(HELP);

    const annotations = linkAnnotations(bytes, 220);
    const words = wordBoxes(path);
    for (const [url, linked] of [
      [TERMS, 'terms of service and the privacy notice'],
      [HELP, 'Write to us'],
    ] as const) {
      const rects = annotations.filter((annotation) => annotation.url === url).map((a) => a.rect);
      expect(rects.length).toBeGreaterThan(0);
      // Each linked word sits inside one of the link's rectangles; the words around it do not.
      const first = words.findIndex(
        (w, i) => linked.startsWith(`${w.word} `) && words[i + 1]?.word === linked.split(' ')[1],
      );
      const count = linked.split(' ').length;
      expect(first).toBeGreaterThanOrEqual(0);
      for (const word of words.slice(first, first + count)) {
        expect(rects.some((rect) => covers(rect, word.box))).toBe(true);
      }
      for (const neighbour of [words[first - 1], words[first + count]]) {
        if (neighbour) expect(rects.some((rect) => covers(rect, neighbour.box))).toBe(false);
      }
    }
    // The terms link wraps: one annotation per line it covers.
    expect(annotations.filter((annotation) => annotation.url === TERMS).length).toBeGreaterThan(1);
  });
});
