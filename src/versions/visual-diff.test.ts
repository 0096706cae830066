/**
 * The visual diff of template versions, on pictures from the real renderer (bundled fonts, no
 * mocks). Case 2 leaves its picture in test/.tmp/visual-diff-sample.png for a human to look at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { DesignDocument } from '../design/index.ts';
import { jobFor, pageDocument, TMP_DIR } from '../engine/goldens/harness.ts';
import { renderInProcess } from '../engine/render.ts';
import type { RenderJob } from '../engine/types.ts';
import { visualDiff } from './visual-diff.ts';

/** The element whose text changes between versions. */
const HEADLINE = { x: 20, y: 56, width: 160, height: 32 };

/** A 200-wide page whose elements all lie in its top 100 pixels. */
function page(headline: string, height = 100): DesignDocument {
  return pageDocument({
    width: 200,
    height,
    background: '#ffffff',
    elements: [
      { id: 'card', type: 'rect', x: 10, y: 10, width: 80, height: 36, fill: '#3366cc' },
      {
        id: 'label',
        type: 'text',
        x: 100,
        y: 10,
        width: 90,
        height: 36,
        text: 'Fixed',
        fontFamily: 'Roboto',
        fontSize: 16,
        color: '#aa2200',
      },
      {
        id: 'headline',
        type: 'text',
        ...HEADLINE,
        text: headline,
        fontFamily: 'Roboto',
        fontSize: 18,
        color: '#222222',
      },
    ],
  });
}

async function render(
  document: DesignDocument,
  format: 'png' | 'jpeg' = 'png',
  extra: Partial<RenderJob> = {},
): Promise<Uint8Array> {
  const [file] = await renderInProcess(jobFor(document, format, extra));
  if (!file) throw new Error('no file rendered');
  return file.bytes;
}

async function rgb(png: Buffer): Promise<{ data: Buffer; width: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect(info.channels).toBe(3);
  return { data, width: info.width };
}

/** Every channel of a picture moved `by` levels towards mid-grey, re-encoded as PNG. */
async function shifted(bytes: Uint8Array, by: number): Promise<Buffer> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i++) {
    const v = data[i] as number;
    data[i] = v >= 128 ? v - by : v + by;
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png()
    .toBuffer();
}

describe('visualDiff', () => {
  it('finds nothing between two renders of the same document', async () => {
    const before = await render(page('Hello world'));
    const after = await render(page('Hello world'));
    const diff = await visualDiff(before, after);
    expect(diff).toMatchObject({
      width: 200,
      height: 100,
      changedPixels: 0,
      totalPixels: 20_000,
      regions: [],
    });
    expect((await sharp(diff.png).metadata()).format).toBe('png');
  });

  it('boxes only the text element whose text changed, over the faded newer page', async () => {
    const diff = await visualDiff(await render(page('Hello world')), await render(page('Hullo world')));
    mkdirSync(TMP_DIR, { recursive: true });
    writeFileSync(join(TMP_DIR, 'visual-diff-sample.png'), diff.png);

    expect(diff.changedPixels).toBeGreaterThan(0);
    expect(diff.regions.length).toBeGreaterThan(0);
    // Anti-aliasing may reach a pixel or two past the element's box.
    const grow = 3;
    for (const [x, y, w, h] of diff.regions) {
      expect(x).toBeGreaterThanOrEqual(HEADLINE.x - grow);
      expect(y).toBeGreaterThanOrEqual(HEADLINE.y - grow);
      expect(x + w).toBeLessThanOrEqual(HEADLINE.x + HEADLINE.width + grow);
      expect(y + h).toBeLessThanOrEqual(HEADLINE.y + HEADLINE.height + grow);
    }
    expect(diff.changedPixels).toBeLessThanOrEqual(
      (HEADLINE.width + 2 * grow) * (HEADLINE.height + 2 * grow),
    );

    // Far from the element (beyond the 4-px outline too), the picture is the faded page: greys only.
    const { data, width } = await rgb(diff.png);
    const pixel = (x: number, y: number) => [...data.subarray((y * width + x) * 3, (y * width + x) * 3 + 3)];
    const far = 12;
    for (let y = 0; y < diff.height; y++) {
      for (let x = 0; x < diff.width; x++) {
        const near =
          x >= HEADLINE.x - far &&
          x < HEADLINE.x + HEADLINE.width + far &&
          y >= HEADLINE.y - far &&
          y < HEADLINE.y + HEADLINE.height + far;
        if (near) continue;
        const [r, g, b] = pixel(x, y);
        if (r !== g || g !== b)
          throw new Error(`pixel ${x},${y} far from the text is coloured: ${r},${g},${b}`);
      }
    }
    // The unchanged blue card is context: a light grey, neither white nor dark.
    const [card] = pixel(50, 28);
    expect(card).toBeGreaterThanOrEqual(191);
    expect(card).toBeLessThan(255);
    // Inside the changed region there is magenta.
    const [x, y, w, h] = diff.regions[0] as [number, number, number, number];
    let magenta = 0;
    for (let py = y; py < y + h; py++)
      for (let px = x; px < x + w; px++) if (pixel(px, py).join() === '255,0,255') magenta++;
    expect(magenta).toBeGreaterThan(0);
  });

  it('ignores JPEG noise within the tolerance and reports changes beyond it', async () => {
    const first = await render(page('Hello world'), 'jpeg', { quality: 90 });
    const second = await render(page('Hello world'), 'jpeg', { quality: 90 });
    expect((await visualDiff(first, second)).changedPixels).toBe(0);
    // Every channel of the JPEG's pixels 8 levels off: still the same picture; 9 levels: every pixel changed.
    expect((await visualDiff(first, await shifted(first, 8))).changedPixels).toBe(0);
    const beyond = await visualDiff(first, await shifted(first, 9));
    expect(beyond.changedPixels).toBe(beyond.totalPixels);
    expect(beyond.regions).toEqual([[0, 0, 200, 100]]);
  });

  it('compares pages of different sizes over their union, anchored top-left', async () => {
    const diff = await visualDiff(
      await render(page('Hello world', 100)),
      await render(page('Hello world', 150)),
    );
    expect(diff.width).toBe(200);
    expect(diff.height).toBe(150);
    expect(diff.totalPixels).toBe(200 * 150);
    // The top 100 rows are the same picture; the 50 rows only the taller page has are all changed.
    expect(diff.changedPixels).toBe(200 * 50);
    expect(diff.regions).toEqual([[0, 100, 200, 50]]);
    // The same the other way round: the rows only the older version had.
    const shrunk = await visualDiff(
      await render(page('Hello world', 150)),
      await render(page('Hello world', 100)),
    );
    expect(shrunk).toMatchObject({
      width: 200,
      height: 150,
      changedPixels: 200 * 50,
      regions: [[0, 100, 200, 50]],
    });
  });

  it('merges many scattered changes into at most 32 regions that still cover them all', async () => {
    const blank = () => sharp({ create: { width: 400, height: 400, channels: 3, background: '#ffffff' } });
    const spots = Array.from({ length: 100 }, (_, i) => ({
      left: (i % 10) * 40 + 5,
      top: Math.floor(i / 10) * 40 + 5,
    }));
    const dotted = await blank()
      .composite(
        spots.map((spot) => ({
          input: { create: { width: 3, height: 3, channels: 3 as const, background: '#000000' } },
          ...spot,
        })),
      )
      .png()
      .toBuffer();
    const diff = await visualDiff(await blank().png().toBuffer(), dotted);
    expect(diff.changedPixels).toBe(100 * 9);
    expect(diff.regions.length).toBeGreaterThan(1);
    expect(diff.regions.length).toBeLessThanOrEqual(32);
    for (const { left, top } of spots) {
      const covered = diff.regions.some(
        ([x, y, w, h]) => left >= x && top >= y && left + 3 <= x + w && top + 3 <= y + h,
      );
      expect(covered, `spot at ${left},${top}`).toBe(true);
    }
  });

  it('refuses a picture over 16 megapixels', async () => {
    const huge = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const small = await render(page('Hello world'));
    await expect(visualDiff(huge, small)).rejects.toThrow(
      /before picture is 5000×5000 pixels.*16 megapixels/,
    );
    await expect(visualDiff(small, huge)).rejects.toThrow(/after picture is 5000×5000 pixels.*16 megapixels/);
  });

  it('refuses two pictures whose union is over 16 megapixels', async () => {
    const make = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
        .png()
        .toBuffer();
    const [wide, tall] = await Promise.all([make(5000, 3000), make(3000, 5000)]);
    await expect(visualDiff(wide, tall)).rejects.toThrow(/together span 5000×5000 pixels.*16 megapixels/);
  });
});
