/**
 * Decoded images are cached by content: bytes viewed again (a held asset) are not hashed again, and
 * different bytes in one piece of memory are different images.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from './images.ts';

const png = (r: number) =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: { r, g: 0, b: 0 } } })
    .png()
    .toBuffer();

describe('decodeImage', () => {
  it('knows bytes by content, whichever view of the memory holds them', async () => {
    const [red, blue] = await Promise.all([png(255), png(0)]);
    // Both images in one piece of memory, as a pooled allocation would have them.
    const shared = Buffer.concat([red, blue]);
    const first = decodeImage({ bytes: shared.subarray(0, red.length), mimeType: 'image/png' });
    const second = decodeImage({ bytes: shared.subarray(red.length), mimeType: 'image/png' });
    expect(first.id).not.toBe(second.id);
    // A new view of the same memory (as each render wraps a held asset) is the same image.
    const again = decodeImage({
      bytes: Buffer.from(shared.buffer, shared.byteOffset, red.length),
      mimeType: 'image/png',
    });
    expect(again).toBe(first);
    // The same content elsewhere in memory is the same image too.
    expect(decodeImage({ bytes: Buffer.from(red), mimeType: 'image/png' }).id).toBe(first.id);
  });
});
