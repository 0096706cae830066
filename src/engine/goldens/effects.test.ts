/**
 * Golden: drop shadows (offset in page axes whatever the rotation, blur as CSS box-shadow's) and
 * blur, on shapes, text, an image and a rotated group (the case). In PDF a shadow is an
 * image under the element while the element stays vector and its text real; a blurred element
 * is an image.
 */
import { describe, expect, it } from 'vitest';
import { compareGolden, renderPng, testPhoto } from './harness.ts';
import { checkPdf, POPPLER, v2Page } from './v2-harness.ts';

async function document() {
  const photo = `data:image/png;base64,${(await testPhoto(200, 140)).toString('base64')}`;
  return v2Page({
    width: 600,
    height: 420,
    background: '#f8fafc',
    elements: [
      {
        id: 'card',
        type: 'rect',
        x: 30,
        y: 30,
        width: 160,
        height: 100,
        cornerRadius: 14,
        fill: '#ffffff',
        shadow: { color: '#0f172a66', blur: 16, offsetX: 0, offsetY: 8 },
      },
      {
        id: 'hard',
        type: 'ellipse',
        x: 230,
        y: 30,
        width: 100,
        height: 100,
        fill: '#f59e0b',
        shadow: { color: '#7c2d12', blur: 0, offsetX: 10, offsetY: 10 },
      },
      {
        id: 'title',
        type: 'text',
        x: 370,
        y: 40,
        width: 220,
        height: 60,
        text: 'Shadowed',
        fontSize: 40,
        fontWeight: 700,
        color: '#2563eb',
        shadow: { color: '#00000080', blur: 6, offsetX: 3, offsetY: 4 },
      },
      // The case: a rotated group with a shadow; the offset stays down-right on the page.
      {
        id: 'badge',
        type: 'group',
        x: 40,
        y: 180,
        width: 200,
        height: 120,
        rotation: 25,
        shadow: { color: '#1e1b4bb3', blur: 20, offsetX: 12, offsetY: 12 },
        elements: [
          {
            id: 'badge-bg',
            type: 'rect',
            x: 0,
            y: 0,
            width: 200,
            height: 120,
            fill: '#7c3aed',
            cornerRadius: 20,
          },
          { id: 'badge-dot', type: 'ellipse', x: 140, y: -20, width: 70, height: 70, fill: '#facc15' },
          {
            id: 'badge-text',
            type: 'text',
            x: 20,
            y: 40,
            width: 160,
            height: 40,
            text: 'SALE −30%',
            fontSize: 28,
            fontWeight: 700,
            color: '#ffffff',
          },
        ],
      },
      {
        id: 'frosted',
        type: 'rect',
        x: 300,
        y: 170,
        width: 120,
        height: 80,
        fill: '#0ea5e9',
        blur: 8,
      },
      {
        id: 'blurred-text',
        type: 'text',
        x: 440,
        y: 170,
        width: 150,
        height: 60,
        text: 'Blur',
        fontSize: 44,
        color: '#be123c',
        blur: 2,
      },
      {
        id: 'photo',
        type: 'image',
        x: 300,
        y: 280,
        width: 140,
        height: 100,
        src: photo,
        cornerRadius: 12,
        shadow: { color: '#000000', blur: 24, offsetX: -10, offsetY: 10 },
      },
      {
        id: 'both',
        type: 'rect',
        x: 480,
        y: 280,
        width: 90,
        height: 90,
        fill: '#16a34a',
        blur: 3,
        opacity: 0.8,
        shadow: { color: '#14532d', blur: 10, offsetX: 8, offsetY: 8 },
      },
    ],
  });
}

describe('effects', () => {
  it('matches the golden', async () => {
    const file = await renderPng(await document());
    const result = await compareGolden('effects', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });

  it('draws the same at scale 2 (lengths scale with the page)', async () => {
    const file = await renderPng(await document(), { scale: 2 });
    const result = await compareGolden('effects-2x', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });

  it.skipIf(!POPPLER)('draws the same in PDF, shadowed text still real text', async () => {
    const pdf = await checkPdf(await document(), 'effects');
    expect(pdf.text).toContain('Shadowed');
    expect(pdf.text).toMatch(/SA\s*L/); // rotated: pdftotext splits it
    // Shadows and blurs are images; the shadowed elements themselves are not.
    expect(pdf.images.length).toBeGreaterThan(0);
    expect(pdf.diffPixels).toBeLessThanOrEqual(pdf.allowed);
  });
});
