/**
 * Golden: image crop (applied before the fit), CSS filters (brightness, contrast, saturation,
 * grayscale, sepia, blur) and a border following the corner radius. The case: a cropped,
 * filtered photo with rounded corners and a border. The PDF draws the same.
 */
import { describe, expect, it } from 'vitest';
import type { DrawOp, ImageOp } from '../layout/index.ts';
import { layoutPage } from '../layout/index.ts';
import { compareGolden, renderPng, testPhoto } from './harness.ts';
import { testLayoutEnv } from './layout-env.ts';
import { checkPdf, POPPLER, v2Page } from './v2-harness.ts';

async function document() {
  const photo = `data:image/png;base64,${(await testPhoto(300, 200)).toString('base64')}`;
  const jpeg = `data:image/jpeg;base64,${(await testPhoto(300, 200, 'jpeg')).toString('base64')}`;
  // The disc of the test photo sits at 70 % across, 35 % down: crop around it.
  const aroundDisc = { x: 0.5, y: 0.05, width: 0.4, height: 0.6 };
  const image = (id: string, x: number, y: number, extra: Record<string, unknown>) => ({
    id,
    type: 'image',
    x,
    y,
    width: 170,
    height: 120,
    src: photo,
    ...extra,
  });
  return v2Page({
    width: 600,
    height: 440,
    background: '#f1f5f9',
    elements: [
      image('original', 20, 20, { fit: 'fill' }),
      image('crop-cover', 210, 20, { crop: aroundDisc }),
      image('crop-contain', 400, 20, {
        crop: aroundDisc,
        fit: 'contain',
        cornerRadius: 16,
        stroke: '#0f172a',
        strokeWidth: 2,
      }),
      image('bright', 20, 160, { filters: { brightness: 1.4, contrast: 1.3 } }),
      image('gray', 210, 160, { filters: { grayscale: 1 } }),
      image('sepia', 400, 160, { filters: { sepia: 0.9, saturation: 1.5 } }),
      // The case: cropped, filtered, rounded, bordered (a JPEG, which PDF passes through).
      image('card', 20, 300, {
        src: jpeg,
        crop: aroundDisc,
        filters: { saturation: 0.4, contrast: 1.2 },
        cornerRadius: 24,
        stroke: '#e11d48',
        strokeWidth: 6,
      }),
      image('soft', 210, 300, { filters: { blur: 4 }, cornerRadius: 12 }),
      image('flipped-crop', 400, 300, {
        crop: aroundDisc,
        flipX: true,
        rotation: -8,
        stroke: '#16a34a',
        strokeWidth: 4,
      }),
    ],
  });
}

describe('image crop, filters and border', () => {
  it('fits the cropped part and writes filters in order (layout)', async () => {
    const doc = await document();
    const page = doc.pages[0];
    if (!page) throw new Error('no page');
    const sources = new Map(
      page.elements.flatMap((el) =>
        el.type === 'image' ? [[el.src, { width: 300, height: 200 }] as const] : [],
      ),
    );
    const result = layoutPage(page, testLayoutEnv(new Map(sources)));
    if (!result.ok) throw new Error(result.reason);
    const firstImage = (ops: readonly DrawOp[]): ImageOp | undefined => {
      for (const op of ops) {
        if (op.op === 'image') return op;
        const inner = op.op === 'group' ? firstImage(op.children) : undefined;
        if (inner) return inner;
      }
      return undefined;
    };
    const imageOf = (id: string) =>
      firstImage(result.layout.ops.filter((op) => op.op === 'group' && op.elementId === id)) as ImageOp;
    // Cropped part 120×120 source px covers a 170×120 box: scale 170/120; the whole source is
    // drawn at that scale, placed so the part's top-left lands where the fit puts it.
    const cover = imageOf('crop-cover');
    expect(cover.width).toBeCloseTo(300 * (170 / 120), 6);
    expect(cover.x).toBeCloseTo(210 - 150 * (170 / 120), 6);
    expect(imageOf('bright').filter).toBe('brightness(1.4) contrast(1.3)');
    expect(imageOf('sepia').filter).toBe('saturate(1.5) sepia(0.9)');
    expect(imageOf('soft').filter).toBe('blur(4px)');
  });

  it('matches the golden', async () => {
    const file = await renderPng(await document());
    const result = await compareGolden('image-crop-filters', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });

  it.skipIf(!POPPLER)('draws the same in PDF', async () => {
    const pdf = await checkPdf(await document(), 'image-crop-filters');
    expect(pdf.diffPixels).toBeLessThanOrEqual(pdf.allowed);
  });
});
