/** Golden: horizontal (left, center, right, justify) and vertical (top, middle, bottom) alignment. */
import { describe, expect, it } from 'vitest';
import { compareGolden, pageDocument, renderPng } from './harness.ts';

const TEXT = 'Align me in the box, please. Justified lines stretch their spaces to both edges.';
const aligns = ['left', 'center', 'right', 'justify'] as const;
const verticals = ['top', 'middle', 'bottom'] as const;

const elements = aligns.flatMap((align, col) =>
  verticals.flatMap((verticalAlign, row) => {
    const x = 16 + col * 196;
    const y = 16 + row * 170;
    return [
      { id: `bg-${align}-${verticalAlign}`, type: 'rect', x, y, width: 180, height: 150, fill: '#eef2f7' },
      {
        id: `t-${align}-${verticalAlign}`,
        type: 'text',
        x,
        y,
        width: 180,
        height: 150,
        text: TEXT,
        fontFamily: 'Roboto',
        fontSize: 15,
        lineHeight: 1.3,
        color: '#222222',
        align,
        verticalAlign,
      },
    ];
  }),
);

describe('text alignment', () => {
  it('matches the golden', async () => {
    const file = await renderPng(pageDocument({ width: 800, height: 526, background: '#ffffff', elements }));
    const result = await compareGolden('text-align', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });
});
