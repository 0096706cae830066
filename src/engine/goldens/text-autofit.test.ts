/**
 * Golden and properties of `autoFit: shrink`: the largest size (0.5 steps) that fits the box
 * without breaking a word, never below minFontSize; text that fits keeps its size.
 */
import { describe, expect, it } from 'vitest';
import type { TextElement } from '../../design/index.ts';
import { layoutText } from '../layout/index.ts';
import { compareGolden, pageDocument, renderPng } from './harness.ts';
import { testLayoutEnv } from './layout-env.ts';

const base = {
  type: 'text',
  fontFamily: 'Montserrat',
  fontWeight: 800,
  color: '#0b3d2e',
  autoFit: 'shrink',
  fontSize: 90,
  lineHeight: 1.1,
};
const doc = pageDocument({
  width: 640,
  height: 420,
  background: '#fdf6e3',
  elements: [
    { id: 'g1', type: 'rect', x: 20, y: 20, width: 290, height: 180, fill: '#eee3c4' },
    { ...base, id: 'short', x: 20, y: 20, width: 290, height: 180, text: 'Sale' },
    { id: 'g2', type: 'rect', x: 330, y: 20, width: 290, height: 180, fill: '#eee3c4' },
    {
      ...base,
      id: 'long',
      x: 330,
      y: 20,
      width: 290,
      height: 180,
      text: 'Everything must go before the weekend ends',
    },
    { id: 'g3', type: 'rect', x: 20, y: 220, width: 600, height: 80, fill: '#eee3c4' },
    { ...base, id: 'word', x: 20, y: 220, width: 600, height: 80, text: 'Extraordinarily' },
    { id: 'g4', type: 'rect', x: 20, y: 320, width: 120, height: 40, fill: '#eee3c4' },
    {
      ...base,
      id: 'floor',
      x: 20,
      y: 320,
      width: 120,
      height: 40,
      minFontSize: 14,
      text: 'Far too much text for such a tiny box at any size',
    },
  ],
});

const element = (id: string): TextElement => {
  const found = doc.pages[0]?.elements.find((el) => el.id === id);
  if (found?.type !== 'text') throw new Error(`no text element ${id}`);
  return found;
};

describe('auto-fit shrink', () => {
  it('keeps the size of text that fits', () => {
    expect(layoutText(element('short'), testLayoutEnv()).fontSize).toBe(90);
  });

  it('chooses the largest fitting size, and one step more would not fit', () => {
    const env = testLayoutEnv();
    const el = element('long');
    const fit = layoutText(el, env);
    expect(fit.fontSize).toBeLessThan(90);
    expect(fit.fontSize).toBeGreaterThanOrEqual(el.minFontSize);
    expect(fit.lines.length * fit.fontSize * el.lineHeight).toBeLessThanOrEqual(el.height + 0.01);
    const bigger = layoutText({ ...el, autoFit: 'none', fontSize: fit.fontSize + 0.5 }, env);
    const tooTall = bigger.lines.length * (fit.fontSize + 0.5) * el.lineHeight > el.height;
    const brokeWord = bigger.lines.some((line) => !/\s$|^$/.test(`${line.text} `));
    expect(tooTall || brokeWord || bigger.lines.length > fit.lines.length).toBe(true);
  });

  it('shrinks a single long word instead of breaking it', () => {
    const fit = layoutText(element('word'), testLayoutEnv());
    expect(fit.lines.map((line) => line.text)).toEqual(['Extraordinarily']);
  });

  it('never goes below minFontSize', () => {
    expect(layoutText(element('floor'), testLayoutEnv()).fontSize).toBe(14);
  });

  it('matches the golden', async () => {
    const file = await renderPng(doc);
    const result = await compareGolden('text-autofit', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });
});
