/**
 * Golden: rotation about the element's centre (clockwise), opacity, visibility and z-order
 * (array order: later elements on top), on shapes, text and images alike.
 */
import { describe, expect, it } from 'vitest';
import { compareGolden, pageDocument, renderPng, testPhoto } from './harness.ts';

describe('rotation, opacity, visibility, z-order', () => {
  it('matches the golden', async () => {
    const photo = `data:image/png;base64,${(await testPhoto(160, 120)).toString('base64')}`;
    const doc = pageDocument({
      width: 600,
      height: 400,
      background: '#fafafa',
      elements: [
        {
          id: 'outline',
          type: 'rect',
          x: 60,
          y: 60,
          width: 160,
          height: 100,
          fill: 'transparent',
          stroke: '#bbbbbb',
          strokeWidth: 1,
        },
        {
          id: 'r30',
          type: 'rect',
          x: 60,
          y: 60,
          width: 160,
          height: 100,
          fill: '#3b82f6',
          rotation: 30,
          opacity: 0.8,
        },
        { id: 'under', type: 'ellipse', x: 300, y: 40, width: 140, height: 140, fill: '#ef4444' },
        { id: 'over', type: 'rect', x: 360, y: 100, width: 140, height: 100, fill: '#10b981', rotation: -15 },
        { id: 'hidden', type: 'rect', x: 0, y: 0, width: 600, height: 400, fill: '#000000', visible: false },
        { id: 'half', type: 'rect', x: 60, y: 240, width: 200, height: 120, fill: '#f59e0b', opacity: 0.5 },
        {
          id: 'text',
          type: 'text',
          x: 60,
          y: 270,
          width: 200,
          height: 60,
          text: 'Rotated text',
          fontSize: 28,
          fontWeight: 700,
          rotation: 90,
          align: 'center',
          verticalAlign: 'middle',
        },
        {
          id: 'img',
          type: 'image',
          x: 340,
          y: 240,
          width: 160,
          height: 120,
          src: photo,
          rotation: 180,
          cornerRadius: 20,
        },
        {
          id: 'line',
          type: 'line',
          x: 300,
          y: 380,
          width: 260,
          height: 0,
          stroke: '#111827',
          strokeWidth: 4,
          rotation: -8,
        },
      ],
    });
    const file = await renderPng(doc);
    const result = await compareGolden('rotation', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });
});
