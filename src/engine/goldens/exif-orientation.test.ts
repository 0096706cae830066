/**
 * A phone photo is stored as the sensor saw it and tagged with the turn that makes it upright (EXIF
 * orientation). A JPEG must be laid out at its upright size and drawn upright, whether Skia decodes
 * it whole (drawn near its size) or libvips shrinks it on load (drawn at half its size or less):
 * the same page as the upright pixels themselves, stored without a tag. A WebP likewise when Skia
 * can read its tag, and as stored when it cannot (libvips's own way of writing it): one photo, one
 * look, at every size. In a
 * PDF, whose readers apply no EXIF, a turned JPEG is drawn upright by Skia instead of embedded as
 * stored.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { type CacheStats, cacheStats } from '../backends/lru.ts';
import { renderInProcess } from '../render.ts';
import { webps } from './exif-files.ts';
import { jobFor, pageDocument, renderPng, testPhoto } from './harness.ts';

const POPPLER = existsSync('/usr/bin/pdftoppm');
const drawables = () => cacheStats().find((cache) => cache.name === 'drawables') as CacheStats;

const dataUri = (bytes: Buffer, type: string) => `data:${type};base64,${bytes.toString('base64')}`;

/** The photo fitted whole into a square page: a photo laid out at the wrong size leaves other margins. */
const squarePage = (src: string, side: number) =>
  pageDocument({
    width: side,
    height: side,
    background: '#ffffff',
    elements: [{ id: 'photo', type: 'image', x: 0, y: 0, width: side, height: side, src, fit: 'contain' }],
  });

async function meanDifference(a: Uint8Array, b: Uint8Array): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer()));
  if (!x || !y || x.length !== y.length) throw new Error('pages of different sizes');
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs((x[i] as number) - (y[i] as number));
  return sum / x.length;
}

describe('EXIF orientation', () => {
  // Stored 1600×1200 and tagged with each orientation: drawn near its size (Skia decodes it whole)
  // and at a third of it (libvips shrinks it on load), it must look like the upright pixels.
  for (const side of [1400, 500]) {
    const shrinks = side * 2 <= 1200;
    const path = shrinks ? 'shrunk on load by libvips' : 'decoded whole by Skia';
    it(`draws a JPEG of each orientation upright, ${path}`, async () => {
      const stored = await testPhoto(1600, 1200, 'png');
      for (let orientation = 2; orientation <= 8; orientation++) {
        const turned = await sharp(stored).withMetadata({ orientation }).jpeg({ quality: 92 }).toBuffer();
        const upright = await sharp(turned).rotate().png().toBuffer();
        const before = drawables();
        const drawn = await renderPng(squarePage(dataUri(turned, 'image/jpeg'), side));
        // Which path drew it: libvips's copy is found ready (a hit), Skia's is made at draw time (a miss).
        const after = drawables();
        if (shrinks) expect(after.hits - before.hits, `orientation ${orientation}`).toBeGreaterThan(0);
        else expect(after.misses - before.misses, `orientation ${orientation}`).toBeGreaterThan(0);
        const reference = await renderPng(squarePage(dataUri(upright, 'image/png'), side));
        // Squashed into the stored 4:3 frame, or turned the wrong way, the photo differs by tens of
        // levels on average.
        expect(await meanDifference(drawn.bytes, reference.bytes), `orientation ${orientation}`).toBeLessThan(
          1.5,
        );
      }
    });

    it(`draws a WebP turned when Skia reads its tag, as stored when it cannot, ${path}`, async () => {
      const stored = await testPhoto(1600, 1200, 'png');
      const { libvips, bare } = await webps(6, stored);
      const upright = await sharp(stored).rotate(90).png().toBuffer();
      const [turned, asStored, uprightPage, storedPage] = await Promise.all([
        renderPng(squarePage(dataUri(bare, 'image/webp'), side)),
        renderPng(squarePage(dataUri(libvips, 'image/webp'), side)),
        renderPng(squarePage(dataUri(upright, 'image/png'), side)),
        renderPng(squarePage(dataUri(stored, 'image/png'), side)),
      ]);
      expect(await meanDifference(turned.bytes, uprightPage.bytes)).toBeLessThan(1.5);
      expect(await meanDifference(asStored.bytes, storedPage.bytes)).toBeLessThan(1.5);
    });
  }

  it.skipIf(!POPPLER)(
    `draws a turned JPEG upright in a PDF${POPPLER ? '' : ' (skipped: poppler-utils is not installed)'}`,
    async () => {
      const stored = await testPhoto(1600, 1200, 'png');
      const turned = await sharp(stored).withMetadata({ orientation: 6 }).jpeg({ quality: 92 }).toBuffer();
      const upright = await sharp(turned).rotate().png().toBuffer();
      const [file] = await renderInProcess(jobFor(squarePage(dataUri(turned, 'image/jpeg'), 500), 'pdf'));
      if (!file) throw new Error('no file');
      const dir = mkdtempSync(join(tmpdir(), 'platen-exif-'));
      writeFileSync(join(dir, 'page.pdf'), file.bytes);
      // 72 dpi: one pixel per point, the page's own size.
      execFileSync('pdftoppm', ['-r', '72', '-png', '-singlefile', join(dir, 'page.pdf'), join(dir, 'page')]);
      const reference = await renderPng(squarePage(dataUri(upright, 'image/png'), 500));
      const raster = readFileSync(join(dir, 'page.png'));
      expect(await meanDifference(raster, reference.bytes)).toBeLessThan(3);
    },
  );
});
