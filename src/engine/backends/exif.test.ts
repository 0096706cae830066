/**
 * The orientation Platen reads (orientation.ts, exif.ts) is the one Skia applies: for each way a
 * file can carry its EXIF, Skia's own answer (its size once it has decoded the file) is compared
 * with ours. And the turns handed to libvips draw what libvips's own reading of a plain tag draws.
 */
import { Image } from '@napi-rs/canvas';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegWith, ORIENTATION, tiff, webps } from '../goldens/exif-files.ts';
import { testPhoto } from '../goldens/harness.ts';
import { orientationSteps, turnsAQuarter } from './exif.ts';
import { drawnOrientation } from './orientation.ts';

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
    });
  }

  it('a WebP: its EXIF chunk read as TIFF, as cwebp writes it; libvips\'s "Exif\\0\\0" chunk is not', async () => {
    const { libvips, bare } = await webps(6, await testPhoto(64, 32, 'png'));
    expect(drawnOrientation(bare)).toBe(6);
    expect(await skiaTurnsAQuarter(bare)).toBe(true);
    expect(drawnOrientation(libvips)).toBe(1);
    expect(await skiaTurnsAQuarter(libvips)).toBe(false);
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
