/**
 * Rich-text layout, inspected directly with the real canvas measurer and bundled fonts: runs per
 * styled piece, wrapping across span boundaries, auto-fit scaling every span, line heights,
 * decorations, links, bidi order of pieces, and a bound on measuring work for 1000 spans.
 */
import { describe, expect, it } from 'vitest';
import type { TextElement } from '../../design/index.ts';
import { parseDesignDocument } from '../../design/index.ts';
import { layoutText } from '../layout/index.ts';
import type { DrawOp, LayoutEnv, LinkOp, PathOp, TextRunOp } from '../layout/types.ts';
import { testLayoutEnv } from './layout-env.ts';

function textElement(fields: Record<string, unknown>): TextElement {
  const parsed = parseDesignDocument({
    schemaVersion: 2,
    pages: [
      {
        id: 'p',
        width: 2000,
        height: 2000,
        elements: [{ id: 't', type: 'text', x: 10, y: 20, width: 400, height: 300, fontSize: 24, ...fields }],
      },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const el = parsed.document.pages[0]?.elements[0];
  if (el?.type !== 'text') throw new Error('no text element');
  return el;
}

const runsOf = (ops: DrawOp[]): TextRunOp[] => ops.filter((op): op is TextRunOp => op.op === 'text');
const pathsOf = (ops: DrawOp[]): PathOp[] => ops.filter((op): op is PathOp => op.op === 'path');
const linksOf = (ops: DrawOp[]): LinkOp[] => ops.filter((op): op is LinkOp => op.op === 'link');

/** Counts the measurer's width calls. */
function countingEnv(): { env: LayoutEnv; calls: () => number } {
  const env = testLayoutEnv();
  const inner = env.measurer;
  let count = 0;
  env.measurer = {
    width: (font, text, spacing) => {
      count++;
      return inner.width(font, text, spacing);
    },
    metrics: (font) => inner.metrics(font),
  };
  return { env, calls: () => count };
}

describe('rich text layout', () => {
  const env = testLayoutEnv();

  it('keeps plain text to one run per line and draws nothing else', () => {
    const layout = layoutText(
      textElement({ text: 'Plain text that wraps over a couple of lines here', width: 200 }),
      env,
    );
    expect(layout.lines.length).toBeGreaterThan(1);
    expect(layout.ops).toEqual(layout.runs);
    expect(layout.runs.map((run) => run.text)).toEqual(layout.lines.map((line) => line.text));
  });

  it('makes one run per same-style piece, merging spans that resolve to one style', () => {
    const layout = layoutText(
      textElement({
        spans: [{ text: 'Hello ' }, { text: 'bold', fontWeight: 700 }, { text: ' and' }, { text: ' plain' }],
      }),
      env,
    );
    expect(layout.runs.map((run) => run.text)).toEqual(['Hello ', 'bold', ' and plain']);
    const [a, b, c] = layout.runs as [TextRunOp, TextRunOp, TextRunOp];
    expect(b.font).toContain('700 24px');
    // Pieces follow one another on the baseline.
    expect(b.x).toBeCloseTo(a.x + env.measurer.width(a.font, a.text, 0), 6);
    expect(c.x).toBeCloseTo(b.x + env.measurer.width(b.font, b.text, 0), 6);
    expect(new Set(layout.runs.map((run) => run.y)).size).toBe(1);
  });

  it('never breaks inside a word split over two spans', () => {
    const spans = [{ text: 'aaaa bbbb cc' }, { text: 'dd', fontWeight: 700 }, { text: 'ee ffff gggg' }];
    const el = textElement({ spans, fontSize: 20 });
    const wordWidth = env.measurer.width(layoutText(el, env).runs[0]?.font ?? '', 'ccddee', 0);
    // Narrow enough that "ccddee" cannot share a line with "aaaa bbbb".
    const layout = layoutText({ ...el, width: wordWidth + 30 }, env);
    expect(layout.lines.map((line) => line.text)).toContain('ccddee');
    expect(layout.lines.some((line) => /cc$|^ddee/.test(line.text))).toBe(false);
  });

  it('scales every span by the same factor when shrinking to fit, and keeps its minimum', () => {
    const el = textElement({
      spans: [{ text: 'Big ', fontSize: 80 }, { text: 'and small words that need to fit into the box' }],
      fontSize: 40,
      width: 300,
      height: 120,
      autoFit: 'shrink',
    });
    const layout = layoutText(el, env);
    expect(layout.fontSize).toBeLessThan(40);
    const factor = layout.fontSize / 40;
    const big = layout.runs.find((run) => run.text.startsWith('Big'));
    expect(big?.font).toContain(`${Math.round(80 * factor * 100) / 100}px`);
    expect(layout.runs.find((run) => run.text.startsWith('and'))?.font).toContain(`${layout.fontSize}px`);
    const floor = layoutText({ ...el, minFontSize: 30, height: 20 }, env);
    expect(floor.fontSize).toBe(30);
  });

  it('makes a line as tall as its largest size', () => {
    const el = textElement({
      spans: [{ text: 'small\n' }, { text: 'small ' }, { text: 'BIG', fontSize: 60 }, { text: '\nsmall' }],
      lineHeight: 1,
    });
    const [first, second, third] = layoutText(el, env)
      .runs.filter((run) => run.text.includes('small'))
      .map((run) => run.y);
    // Line 2 holds a 60 px span: line 3's baseline is further from line 2's than line 2's from line 1's... in a 60 px box.
    expect((third ?? 0) - (first ?? 0)).toBeGreaterThan(24 + 60 - 1);
    expect(second).toBeDefined();
  });

  it('ends a truncated line with an ellipsis in the style of the text it follows', () => {
    const el = textElement({
      spans: [
        { text: 'one two three four five six seven ' },
        { text: 'eight nine ten eleven twelve', color: '#ff0000' },
      ],
      width: 180,
      maxLines: 2,
    });
    const layout = layoutText(el, env);
    expect(layout.lines).toHaveLength(2);
    const last = layout.runs.at(-1);
    expect(last?.text.endsWith('…')).toBe(true);
    expect(last?.color).toBe(layout.runs.find((run) => run.text.includes('…'))?.color);
    for (const line of layout.lines) expect(line.width).toBeLessThanOrEqual(180 + 0.01);
  });

  it('draws backgrounds behind, underline and strike in the span colour, and one link per line piece', () => {
    const el = textElement({
      spans: [
        { text: 'under', underline: true, color: '#0000ff' },
        { text: ' struck', strike: true },
        { text: ' marked', background: '#ffff00' },
        { text: ' a link that wraps onto the next line', link: 'https://example.com/x' },
      ],
      width: 300,
    });
    const layout = layoutText(el, env);
    const runs = runsOf(layout.ops);
    const paths = pathsOf(layout.ops);
    const firstRun = layout.ops.findIndex((op) => op.op === 'text');
    const background = paths.find((p) => p.fill?.paint === 'rgba(255, 255, 0, 1)');
    expect(background && layout.ops.indexOf(background)).toBeLessThan(firstRun);
    const underline = paths.find((p) => p.fill?.paint === 'rgba(0, 0, 255, 1)');
    expect(underline).toBeDefined();
    expect(paths).toHaveLength(3);
    const links = linksOf(layout.ops);
    // The link text starts at the end of line 1 ("… marked a") and wraps over lines 2 and 3.
    expect(layout.lines.map((line) => line.text)).toEqual([
      'under struck marked a',
      'link that wraps onto the',
      'next line',
    ]);
    expect(links).toHaveLength(3);
    for (const link of links) {
      expect(link.url).toBe('https://example.com/x');
      const run = runs.find(
        (r) => Math.abs(r.x - link.x) < 1e-9 && r.y > link.y && r.y < link.y + link.height,
      );
      expect(run).toBeDefined();
    }
  });

  it('paints a gradient over the element box, outlines glyphs and highlights each line', () => {
    const el = textElement({
      text: 'Gradient text on two lines',
      width: 200,
      color: {
        type: 'linear',
        angle: 90,
        stops: [
          { offset: 0, color: '#ff0000' },
          { offset: 1, color: '#0000ff' },
        ],
      },
      stroke: { color: '#000000', width: 2 },
      highlight: { color: '#ffee00', padding: 4, cornerRadius: 3 },
    });
    const layout = layoutText(el, env);
    const runs = runsOf(layout.ops);
    expect(runs.length).toBe(2);
    for (const run of runs) {
      if (typeof run.color === 'string' || run.color.kind !== 'linear')
        throw new Error('not a linear gradient');
      expect(run.color.x0).toBeCloseTo(10, 6);
      expect(run.color.x1).toBeCloseTo(210, 6);
      expect(run.stroke).toEqual({ color: 'rgba(0, 0, 0, 1)', width: 2 });
    }
    const highlights = pathsOf(layout.ops);
    expect(highlights).toHaveLength(2);
    expect(layout.ops.slice(0, 2)).toEqual(highlights);
  });

  it('lays the pieces of a right-to-left paragraph from right to left', () => {
    const layout = layoutText(
      textElement({ spans: [{ text: 'مرحبا ' }, { text: 'بالعالم', color: '#ff0000' }], align: 'right' }),
      env,
    );
    const first = layout.runs.find((run) => run.text === 'مرحبا ') as TextRunOp;
    const second = layout.runs.find((run) => run.text === 'بالعالم') as TextRunOp;
    expect(first.direction).toBe('rtl');
    expect(first.x).toBeGreaterThan(second.x);
    // Right-aligned: the first piece ends at the box's right edge.
    expect(first.x + env.measurer.width(first.font, first.text, 0)).toBeCloseTo(410, 6);
  });

  it('reverses an Arabic stretch made of several spans inside a Latin paragraph', () => {
    const layout = layoutText(
      textElement({
        spans: [
          { text: 'Hello ' },
          { text: 'مرحبا', color: '#ff0000' },
          { text: ' ' },
          { text: 'بالعالم', color: '#0000ff' },
          { text: ' end' },
        ],
      }),
      env,
    );
    const x = (text: string) => layout.runs.find((run) => run.text.includes(text))?.x ?? Number.NaN;
    expect(x('Hello')).toBeLessThan(x('بالعالم'));
    expect(x('بالعالم')).toBeLessThan(x('مرحبا'));
    expect(x('مرحبا')).toBeLessThan(x('end'));
  });

  it('capitalises words, not span starts', () => {
    const layout = layoutText(
      textElement({
        spans: [{ text: 'bo' }, { text: 'ld word', fontWeight: 700 }],
        textTransform: 'capitalize',
      }),
      env,
    );
    expect(layout.runs.map((run) => run.text)).toEqual(['Bo', 'ld Word']);
  });

  it('breaks a word made of many spans without overflowing the box', () => {
    const spans = Array.from({ length: 60 }, (_, i) => ({ text: 'ab', fontWeight: i % 2 ? 700 : 400 }));
    const layout = layoutText(textElement({ spans, width: 120 }), env);
    expect(layout.lines.length).toBeGreaterThan(1);
    for (const line of layout.lines) expect(line.width).toBeLessThanOrEqual(120.01);
    expect(layout.lines.map((line) => line.text).join('')).toBe('ab'.repeat(60));
  });

  it('measures 1000 spans under auto-fit with work linear in the spans', () => {
    const spansOf = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        text: i % 7 === 3 ? 'lo' : 'word ',
        fontWeight: i % 2 ? 700 : 400,
        ...(i % 5 === 0 ? { fontSize: 30 } : {}),
      }));
    const callsFor = (count: number): number => {
      const { env: counting, calls } = countingEnv();
      layoutText(
        textElement({ spans: spansOf(count), width: 500, height: 400, autoFit: 'shrink', minFontSize: 2 }),
        counting,
      );
      return calls();
    };
    const thousand = callsFor(1000);
    const half = callsFor(500);
    // About ten auto-fit attempts, each measuring every piece a few times: linear, not quadratic.
    expect(thousand).toBeLessThan(1000 * 60);
    expect(thousand / half).toBeLessThan(2.6);
  });
});
