/**
 * Golden: groups (children placed relative to the group's box, nested three deep, clipped to the
 * box, opacity multiplying down, rotation turning all children about the group's centre, a hidden
 * group hiding its children) and flips (mirrored about the box centre, flip first then rotate;
 * text mirrors too). The PDF draws the same and keeps the text real.
 */
import { describe, expect, it } from 'vitest';
import { layoutPage } from '../layout/index.ts';
import { compareGolden, renderPng } from './harness.ts';
import { testLayoutEnv } from './layout-env.ts';
import { checkPdf, POPPLER, v2Page } from './v2-harness.ts';

/** An arrow pointing right, so a mirror or rotation shows. */
const arrow = (id: string, x: number, y: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'group',
  x,
  y,
  width: 120,
  height: 60,
  elements: [
    { id: `${id}-shaft`, type: 'rect', x: 0, y: 20, width: 80, height: 20, fill: '#2563eb' },
    {
      id: `${id}-head`,
      type: 'svg',
      x: 70,
      y: 0,
      width: 50,
      height: 60,
      svg: "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 50 60'><path d='M0 0L50 30L0 60Z' fill='#dc2626'/></svg>",
    },
    { id: `${id}-dot`, type: 'ellipse', x: 0, y: 0, width: 16, height: 16, fill: '#16a34a' },
  ],
  ...extra,
});

const doc = v2Page({
  width: 600,
  height: 420,
  background: '#ffffff',
  elements: [
    arrow('plain', 20, 20),
    arrow('mirrored', 170, 20, { flipX: true }),
    arrow('upside', 320, 20, { flipY: true }),
    arrow('turned', 460, 20, { rotation: 90 }),
    // Flip first, then rotate: a mirrored arrow turned 30° clockwise.
    arrow('both', 20, 110, { flipX: true, rotation: 30 }),
    {
      id: 'mirror-text',
      type: 'text',
      x: 170,
      y: 110,
      width: 140,
      height: 50,
      text: 'Mirror',
      fontSize: 32,
      fontWeight: 700,
      color: '#111827',
      flipX: true,
    },
    {
      id: 'outer',
      type: 'group',
      x: 330,
      y: 100,
      width: 250,
      height: 300,
      rotation: 10,
      opacity: 0.9,
      elements: [
        {
          id: 'outer-bg',
          type: 'rect',
          x: 0,
          y: 0,
          width: 250,
          height: 300,
          fill: '#fef3c7',
          cornerRadius: 12,
        },
        {
          id: 'middle',
          type: 'group',
          x: 20,
          y: 20,
          width: 210,
          height: 160,
          clip: true,
          opacity: 0.8,
          elements: [
            { id: 'middle-bg', type: 'rect', x: 0, y: 0, width: 210, height: 160, fill: '#1e3a8a' },
            // Overflows the clipped group on three sides.
            { id: 'big-disc', type: 'ellipse', x: 120, y: 60, width: 180, height: 180, fill: '#f59e0b' },
            {
              id: 'inner',
              type: 'group',
              x: -30,
              y: 30,
              width: 120,
              height: 100,
              rotation: -20,
              elements: [
                { id: 'inner-rect', type: 'rect', x: 0, y: 0, width: 120, height: 100, fill: '#ec4899' },
                {
                  id: 'inner-text',
                  type: 'text',
                  x: 10,
                  y: 30,
                  width: 110,
                  height: 40,
                  text: 'Nested',
                  fontSize: 26,
                  color: '#ffffff',
                },
              ],
            },
          ],
        },
        {
          id: 'hidden',
          type: 'group',
          x: 20,
          y: 200,
          width: 210,
          height: 80,
          visible: false,
          elements: [{ id: 'never', type: 'rect', x: 0, y: 0, width: 210, height: 80, fill: '#ff0000' }],
        },
        {
          id: 'caption',
          type: 'text',
          x: 20,
          y: 210,
          width: 210,
          height: 60,
          text: 'Group in a group',
          fontSize: 22,
          color: '#78350f',
        },
      ],
    },
    {
      id: 'ghost',
      type: 'group',
      x: 20,
      y: 230,
      width: 280,
      height: 170,
      opacity: 0.5,
      elements: [
        { id: 'ghost-a', type: 'rect', x: 0, y: 0, width: 180, height: 120, fill: '#7c3aed' },
        // Overlapping children each take the group's opacity (per primitive, as documented).
        { id: 'ghost-b', type: 'rect', x: 100, y: 50, width: 180, height: 120, fill: '#059669' },
      ],
    },
  ],
});

describe('groups and flips', () => {
  it('places children relative to the group box and composes transforms (layout)', () => {
    const result = layoutPage(doc.pages[0] as never, testLayoutEnv());
    if (!result.ok) throw new Error(result.reason);
    const [, plain, mirrored] = result.layout.ops; // ops[0] is the background
    expect(plain).toMatchObject({ op: 'group', elementId: 'plain', transform: [1, 0, 0, 1, 20, 20] });
    // flipX about the box centre (x 170..290): x → 460 − x, then the group offset.
    expect(mirrored).toMatchObject({ op: 'group', transform: [-1, 0, 0, 1, 290, 20] });
    expect(JSON.stringify(result.layout.ops)).not.toContain('never');
  });

  it('matches the golden', async () => {
    const file = await renderPng(doc);
    const result = await compareGolden('groups', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });

  it.skipIf(!POPPLER)('draws the same in PDF, text still real', async () => {
    const pdf = await checkPdf(doc, 'groups');
    expect(pdf.text).toContain('Nested');
    expect(pdf.text).toContain('Group'); // rotated: pdftotext splits its lines
    expect(pdf.diffPixels).toBeLessThanOrEqual(pdf.allowed);
  });
});
