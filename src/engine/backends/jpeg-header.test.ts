/**
 * What a JPEG's header says (jpeg-header.ts), and what decoding makes of it (images.ts): the size a
 * photo is laid out at is its upright size, and a photo stored turned is not embedded in a PDF as
 * it is (a PDF reader would not turn it).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testPhoto } from '../goldens/harness.ts';
import { decodeImage } from './images.ts';
import { readJpegHeader } from './jpeg-header.ts';

/**
 * The JPEG with an APP1 EXIF segment right after its start: one image file directory holding the
 * orientation tag (TIFF 6.0 §2), in either byte order. (sharp's `withMetadata` adds an ICC profile
 * too.)
 */
function withExifOrientation(jpeg: Buffer, orientation: number, order: 'II' | 'MM' = 'II'): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  const little = order === 'II';
  const u16 = (value: number, at: number) =>
    little ? tiff.writeUInt16LE(value, at) : tiff.writeUInt16BE(value, at);
  const u32 = (value: number, at: number) =>
    little ? tiff.writeUInt32LE(value, at) : tiff.writeUInt32BE(value, at);
  tiff.write(order, 0, 'latin1');
  u16(42, 2);
  u32(8, 4);
  u16(1, 8); // one entry
  u16(0x0112, 10);
  u16(3, 12); // SHORT
  u32(1, 14);
  u16(orientation, 18);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, body, jpeg.subarray(2)]);
}

describe('readJpegHeader', () => {
  it('reads the frame of baseline, progressive and greyscale JPEGs', async () => {
    const photo = await testPhoto(320, 200, 'jpeg');
    expect(readJpegHeader(photo)).toEqual({
      width: 320,
      height: 200,
      frameType: 0xc0,
      precision: 8,
      components: 3,
      orientation: 1,
      adobe: false,
    });
    const progressive = await sharp(photo).jpeg({ progressive: true }).toBuffer();
    expect(readJpegHeader(progressive)).toMatchObject({ frameType: 0xc2, components: 3 });
    const grey = await sharp(photo).toColourspace('b-w').jpeg().toBuffer();
    expect(readJpegHeader(grey)).toMatchObject({ width: 320, height: 200, components: 1 });
  });

  it('reads the EXIF orientation in either byte order', async () => {
    const photo = await testPhoto(320, 200, 'jpeg');
    for (const orientation of [1, 2, 3, 6, 8]) {
      for (const order of ['II', 'MM'] as const) {
        const header = readJpegHeader(withExifOrientation(photo, orientation, order));
        expect(header?.orientation, `${orientation} ${order}`).toBe(orientation);
      }
    }
    // Out of range: Skia skips it, and draws the photo as stored.
    expect(readJpegHeader(withExifOrientation(photo, 9))?.orientation).toBe(1);
  });

  it('sees an Adobe marker (CMYK)', async () => {
    const photo = await testPhoto(320, 200, 'jpeg');
    const cmyk = readJpegHeader(await sharp(photo).toColourspace('cmyk').jpeg().toBuffer());
    expect(cmyk).toMatchObject({ adobe: true, components: 4 });
  });

  it('refuses what is not a whole JPEG header', async () => {
    const photo = await testPhoto(320, 200, 'jpeg');
    expect(readJpegHeader(await testPhoto(8, 8, 'png'))).toBeNull();
    expect(readJpegHeader(photo.subarray(0, 40))).toBeNull();
    expect(readJpegHeader(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
    // A whole file whose first segment claims to run past the end of the bytes.
    const overlong = Buffer.from(photo);
    expect(overlong.readUInt16BE(2)).toBe(0xffdb); // sharp writes the quantisation tables first
    overlong.writeUInt16BE(0xfff0, 4);
    expect(readJpegHeader(overlong)).toBeNull();
    // A marker without a length (a restart marker) before the first scan.
    const restart = Buffer.concat([photo.subarray(0, 2), Buffer.from([0xff, 0xd0]), photo.subarray(2)]);
    expect(readJpegHeader(restart)).toBeNull();
    // Fill bytes before a marker are allowed (T.81 B.1.1.2).
    const filled = Buffer.concat([photo.subarray(0, 2), Buffer.from([0xff, 0xff]), photo.subarray(2)]);
    expect(readJpegHeader(filled)).toMatchObject({ width: 320, height: 200 });
  });
});

describe('decodeImage', () => {
  it('lays a photo stored turned out at its upright size, and does not embed its bytes in a PDF', async () => {
    const stored = await testPhoto(500, 400, 'jpeg');
    for (const orientation of [5, 6, 7, 8]) {
      const image = decodeImage({ bytes: withExifOrientation(stored, orientation), mimeType: 'image/jpeg' });
      expect([image.width, image.height], `${orientation}`).toEqual([400, 500]);
      expect(image.jpeg).toBeUndefined();
    }
    // Half turns and mirrors keep the stored size; a PDF reader would still not apply them.
    for (const orientation of [2, 3, 4]) {
      const image = decodeImage({ bytes: withExifOrientation(stored, orientation), mimeType: 'image/jpeg' });
      expect([image.width, image.height], `${orientation}`).toEqual([500, 400]);
      expect(image.jpeg).toBeUndefined();
    }
    // Drawn as stored (untagged, tagged 1, or tagged out of range): embedded as it is.
    for (const bytes of [stored, withExifOrientation(stored, 1, 'MM'), withExifOrientation(stored, 9)]) {
      const image = decodeImage({ bytes, mimeType: 'image/jpeg' });
      expect([image.width, image.height]).toEqual([500, 400]);
      expect(image.jpeg).toBe(bytes);
    }
  });
});
