/**
 * Golden: linear gradients at several angles and a radial one on rects and ellipses, over a page
 * whose background is a gradient too. In PDF they stay vector: the file holds no raster image.
 */
import { describe, expect, it } from 'vitest';
import { compareGolden, renderPng } from './harness.ts';
import { checkPdf, POPPLER, v2Page } from './v2-harness.ts';

const sunset = [
  { offset: 0, color: '#f97316' },
  { offset: 0.5, color: '#db2777' },
  { offset: 1, color: '#4c1d95' },
];

const doc = v2Page({
  width: 600,
  height: 360,
  background: {
    type: 'linear',
    angle: 180,
    stops: [
      { offset: 0, color: '#f8fafc' },
      { offset: 1, color: '#cbd5e1' },
    ],
  },
  elements: [
    {
      id: 'up',
      type: 'rect',
      x: 20,
      y: 20,
      width: 160,
      height: 100,
      fill: { type: 'linear', angle: 0, stops: sunset },
    },
    {
      id: 'right',
      type: 'rect',
      x: 210,
      y: 20,
      width: 160,
      height: 100,
      cornerRadius: 20,
      fill: { type: 'linear', angle: 90, stops: sunset },
      stroke: '#111827',
      strokeWidth: 3,
    },
    {
      id: 'diagonal',
      type: 'rect',
      x: 400,
      y: 20,
      width: 180,
      height: 100,
      fill: {
        type: 'linear',
        angle: 135,
        stops: [
          { offset: 0, color: '#22d3ee' },
          { offset: 0.3, color: '#22d3ee' },
          { offset: 1, color: '#1e3a8a80' },
        ],
      },
    },
    {
      id: 'glow',
      type: 'rect',
      x: 20,
      y: 150,
      width: 200,
      height: 190,
      fill: {
        type: 'radial',
        stops: [
          { offset: 0, color: '#fde047' },
          { offset: 1, color: '#15803d' },
        ],
      },
    },
    {
      id: 'orb',
      type: 'ellipse',
      x: 250,
      y: 150,
      width: 150,
      height: 190,
      fill: { type: 'radial', stops: sunset },
    },
    {
      id: 'pill',
      type: 'ellipse',
      x: 420,
      y: 180,
      width: 160,
      height: 120,
      rotation: 30,
      fill: { type: 'linear', angle: 90, stops: sunset },
      stroke: '#ffffff',
      strokeWidth: 4,
    },
  ],
});

describe('gradients', () => {
  it('matches the golden', async () => {
    const file = await renderPng(doc);
    const result = await compareGolden('gradients', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });

  it.skipIf(!POPPLER)(
    'draws the same in PDF, as vector gradients (no raster image in the file)',
    async () => {
      const pdf = await checkPdf(doc, 'gradients');
      expect(pdf.images).toEqual([]);
      expect(pdf.diffPixels).toBeLessThanOrEqual(pdf.allowed);
    },
  );
});
