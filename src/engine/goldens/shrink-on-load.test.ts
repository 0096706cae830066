/**
 * Shrink-on-load (backends/images.ts `prescale`): a JPEG or WebP drawn at half its size or less is
 * decoded at a reduced size by libvips. It must draw what Skia's own decode and scaling draws for
 * the same pixels (a lossless PNG of the decoded photo, which never shrinks on load), and a golden
 * keeps the look.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage, drawableFor, prescale } from '../backends/images.ts';
import { type CacheStats, cacheStats } from '../backends/lru.ts';
import { compareGolden, pageDocument, renderPng, testPhoto } from './harness.ts';

const photoPage = (src: string, width: number, height: number) =>
  pageDocument({
    width,
    height,
    background: '#ffffff',
    elements: [{ id: 'photo', type: 'image', x: 0, y: 0, width, height, src, fit: 'cover' }],
  });

const dataUri = (bytes: Buffer, type: string) => `data:${type};base64,${bytes.toString('base64')}`;

async function rgb(png: Uint8Array): Promise<Buffer> {
  return sharp(png).removeAlpha().raw().toBuffer();
}

/** Mean and 99th percentile of the absolute channel differences. */
function difference(a: Buffer, b: Buffer): { mean: number; p99: number } {
  expect(a.length).toBe(b.length);
  const histogram = new Array<number>(256).fill(0);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs((a[i] as number) - (b[i] as number));
    histogram[d] = (histogram[d] ?? 0) + 1;
    sum += d;
  }
  let seen = 0;
  let p99 = 0;
  for (; p99 < 256 && seen < a.length * 0.99; p99++) seen += histogram[p99] ?? 0;
  return { mean: sum / a.length, p99: p99 - 1 };
}

describe('shrink-on-load', () => {
  it('draws a JPEG at a quarter of its size as Skia draws the same pixels', async () => {
    const jpeg = await testPhoto(1600, 1200, 'jpeg');
    // The photo's decoded pixels, losslessly: Skia decodes and scales these itself.
    const png = await sharp(jpeg).png().toBuffer();
    const shrunk = await renderPng(photoPage(dataUri(jpeg, 'image/jpeg'), 400, 300));
    const reference = await renderPng(photoPage(dataUri(png, 'image/png'), 400, 300));
    const { mean, p99 } = difference(await rgb(shrunk.bytes), await rgb(reference.bytes));
    expect(mean).toBeLessThan(1.5);
    expect(p99).toBeLessThan(12);
    const golden = await compareGolden('shrink-on-load-jpeg', shrunk.bytes);
    expect(golden.pass, golden.message).toBe(true);
  });

  it('draws a WebP at a quarter of its size as Skia draws the same pixels', async () => {
    const webp = await sharp(await testPhoto(1200, 800, 'png'))
      .webp({ lossless: true })
      .toBuffer();
    const png = await sharp(webp).png().toBuffer();
    const shrunk = await renderPng(photoPage(dataUri(webp, 'image/webp'), 300, 200));
    const reference = await renderPng(photoPage(dataUri(png, 'image/png'), 300, 200));
    const { mean, p99 } = difference(await rgb(shrunk.bytes), await rgb(reference.bytes));
    expect(mean).toBeLessThan(1.5);
    expect(p99).toBeLessThan(12);
  });

  it('pre-scales only reductions to half or less, where the decoder can shrink', async () => {
    const image = decodeImage({ bytes: await testPhoto(1000, 800, 'jpeg'), mimeType: 'image/jpeg' });
    const stats = () => cacheStats().find((cache) => cache.name === 'drawables') as CacheStats;
    // 0.9 of its size: decoded whole either way, so nothing is prepared and drawing scales it (a miss).
    await prescale(image, 900, 720);
    const skia = stats();
    drawableFor(image, 900, 720);
    expect(stats().misses).toBe(skia.misses + 1);
    // Half its size: libvips's copy is ready, and drawing finds it (a hit, no miss).
    await prescale(image, 500, 400);
    const shrunk = stats();
    const drawable = drawableFor(image, 500, 400);
    expect(stats()).toMatchObject({ hits: shrunk.hits + 1, misses: shrunk.misses });
    expect([drawable.width, drawable.height]).toEqual([500, 400]);
  });

  it('leaves a JPEG libvips refuses to Skia, which decides how it fails', async () => {
    const jpeg = await testPhoto(1600, 1200, 'jpeg');
    // Cut short: both decoders may draw what they could read; neither may crash the render.
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
    const file = await renderPng(photoPage(dataUri(truncated, 'image/jpeg'), 400, 300));
    expect(file.width).toBe(400);
  });
});
