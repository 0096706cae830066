/** Golden: rect and ellipse fills and strokes, corner radius, lines with dashes, translucent colours. */
import { describe, expect, it } from 'vitest';
import { compareGolden, pageDocument, renderPng } from './harness.ts';

const doc = pageDocument({
  width: 600,
  height: 360,
  background: '#ffffff',
  elements: [
    { id: 'plain', type: 'rect', x: 20, y: 20, width: 160, height: 100, fill: '#2563eb' },
    {
      id: 'rounded',
      type: 'rect',
      x: 210,
      y: 20,
      width: 160,
      height: 100,
      fill: '#fde68a',
      cornerRadius: 24,
      stroke: '#92400e',
      strokeWidth: 4,
    },
    {
      id: 'pill',
      type: 'rect',
      x: 400,
      y: 20,
      width: 180,
      height: 60,
      fill: 'rgb(16, 185, 129)',
      cornerRadius: 1000,
    },
    {
      id: 'stroke-only',
      type: 'rect',
      x: 400,
      y: 95,
      width: 180,
      height: 45,
      fill: 'transparent',
      stroke: '#111827',
      strokeWidth: 2,
      cornerRadius: 8,
    },
    {
      id: 'circle',
      type: 'ellipse',
      x: 20,
      y: 150,
      width: 120,
      height: 120,
      fill: '#ef4444',
      stroke: '#7f1d1d',
      strokeWidth: 6,
    },
    { id: 'oval', type: 'ellipse', x: 160, y: 170, width: 200, height: 80, fill: '#8b5cf6' },
    {
      id: 'glass',
      type: 'rect',
      x: 100,
      y: 200,
      width: 180,
      height: 120,
      fill: '#ffffff99',
      stroke: 'rgba(0, 0, 0, 0.5)',
      strokeWidth: 3,
    },
    { id: 'solid', type: 'line', x: 400, y: 170, width: 180, height: 0, stroke: '#111827', strokeWidth: 3 },
    {
      id: 'dashed',
      type: 'line',
      x: 400,
      y: 200,
      width: 180,
      height: 0,
      stroke: '#dc2626',
      strokeWidth: 4,
      dash: [12, 6],
    },
    {
      id: 'dotted',
      type: 'line',
      x: 400,
      y: 230,
      width: 180,
      height: 0,
      stroke: '#2563eb',
      strokeWidth: 3,
      dash: [3],
    },
    {
      id: 'diagonal',
      type: 'line',
      x: 580,
      y: 250,
      width: -180,
      height: 90,
      stroke: '#059669',
      strokeWidth: 5,
      dash: [20, 8, 4, 8],
    },
  ],
});

describe('shapes', () => {
  it('matches the golden', async () => {
    const file = await renderPng(doc);
    const result = await compareGolden('shapes', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });
});
