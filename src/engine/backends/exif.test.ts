/**
 * The orientation Platen reads (orientation.ts, exif.ts) is the one Skia applies: for each way a
 * file can carry its EXIF, Skia's own answer (its size once it has decoded the file) is compared
 * with ours. And the turns handed to libvips draw what libvips's own reading of a plain tag draws.
 */
import { createCanvas, Image } from '@napi-rs/canvas';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegWith, ORIENTATION, tiff, unreadWebpExif, webps } from '../goldens/exif-files.ts';
import { testPhoto } from '../goldens/harness.ts';
import { orientationSteps, turnsAQuarter } from './exif.ts';
import { drawnOrientation } from './orientation.ts';

/**
 * Skia's pixels of the file at the size it draws it, against libvips's pixels of the same file
 * turned by our reading (orientationSteps of drawnOrientation): the mean difference a channel.
 */
async function differenceFromSkia(bytes: Buffer): Promise<number> {
  const image = new Image();
  image.src = bytes;
  await image.decode();
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const skia = ctx.getImageData(0, 0, image.width, image.height).data;
  const { mirror, degrees } = orientationSteps(drawnOrientation(bytes));
  const ours = sharp(bytes).ensureAlpha();
  if (mirror) ours.flop();
  if (degrees) ours.rotate(degrees);
  const { data, info } = await ours.raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([image.width, image.height]);
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += Math.abs((data[i] as number) - (skia[i] as number));
  return sum / data.length;
}

/** Whether Skia turns the file a quarter: its size once decoded, against its stored size. */
async function skiaTurnsAQuarter(bytes: Buffer): Promise<boolean> {
  const image = new Image();
  image.src = bytes;
  const stored = [image.width, image.height];
  await image.decode();
  expect(stored[0]).not.toBe(stored[1]);
  return image.width === stored[1] && image.height === stored[0];
}

describe('drawnOrientation agrees with Skia', async () => {
  const photo = await testPhoto(64, 32, 'jpeg');
  const cases: [string, Buffer, number][] = [
    ['untagged', photo, 1],
    ['6, little-endian', jpegWith(photo, ['Exif\0\0', tiff([ORIENTATION(6)])]), 6],
    ['8', jpegWith(photo, ['Exif\0\0', tiff([ORIENTATION(8)])]), 8],
    ['3 (a half turn)', jpegWith(photo, ['Exif\0\0', tiff([ORIENTATION(3)])]), 3],
    ['6 stored as a LONG, which Skia ignores', jpegWith(photo, ['Exif\0\0', tiff([ORIENTATION(6, 4)])]), 1],
    ['6 only in the Exif sub-directory', jpegWith(photo, ['Exif\0\0', tiff([], [ORIENTATION(6)])]), 6],
    [
      '9 in IFD0, then 6 in the sub-directory',
      jpegWith(photo, ['Exif\0\0', tiff([ORIENTATION(9)], [ORIENTATION(6)])]),
      6,
    ],
    ['a signature of "Exif\\0" and another byte', jpegWith(photo, ['Exif\0\xff', tiff([ORIENTATION(6)])]), 6],
    [
      'a second APP1 segment, not read',
      jpegWith(photo, ['Exif\0\0', tiff([])], ['Exif\0\0', tiff([ORIENTATION(6)])]),
      1,
    ],
  ];
  for (const [name, bytes, expected] of cases) {
    it(`a JPEG: ${name}`, async () => {
      expect(drawnOrientation(bytes)).toBe(expected);
      expect(turnsAQuarter(drawnOrientation(bytes))).toBe(await skiaTurnsAQuarter(bytes));
      // The exact turn and mirror, not only the quarter: a wrong reading differs by tens of levels.
      expect(await differenceFromSkia(bytes)).toBeLessThan(3);
    });
  }

  it('a WebP: its EXIF chunk read as TIFF, as cwebp writes it; libvips\'s "Exif\\0\\0" chunk is not', async () => {
    const { libvips, bare } = await webps(6, await testPhoto(64, 32, 'png'));
    expect(drawnOrientation(bare)).toBe(6);
    expect(await skiaTurnsAQuarter(bare)).toBe(true);
    expect(await differenceFromSkia(bare)).toBeLessThan(3);
    expect(drawnOrientation(libvips)).toBe(1);
    expect(await skiaTurnsAQuarter(libvips)).toBe(false);
  });

  it('a WebP: an EXIF chunk decoders do not read is not read', async () => {
    const files = await unreadWebpExif(6, await testPhoto(64, 32, 'png'));
    for (const [name, file] of Object.entries(files)) {
      expect(drawnOrientation(file), name).toBe(1);
      expect(await skiaTurnsAQuarter(file), name).toBe(false);
    }
  });

  it('a PNG is drawn as stored, whatever its EXIF says', async () => {
    const png = await sharp(await testPhoto(64, 32, 'png'))
      .withMetadata({ orientation: 6 })
      .png()
      .toBuffer();
    expect(drawnOrientation(png)).toBe(1);
    expect(await skiaTurnsAQuarter(png)).toBe(false);
  });
});

describe('orientationSteps', () => {
  it("turns as libvips's own reading of a plain tag turns, for every orientation", async () => {
    const stored = await testPhoto(48, 32, 'png');
    for (let orientation = 1; orientation <= 8; orientation++) {
      const tagged = await sharp(stored).withMetadata({ orientation }).png().toBuffer();
      const reference = await sharp(tagged).rotate().raw().toBuffer();
      const { mirror, degrees } = orientationSteps(orientation);
      const ours = sharp(stored);
      if (mirror) ours.flop();
      if (degrees) ours.rotate(degrees);
      expect((await ours.raw().toBuffer()).equals(reference), `orientation ${orientation}`).toBe(true);
    }
  });
});
