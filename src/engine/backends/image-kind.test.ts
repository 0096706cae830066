import { describe, expect, it } from 'vitest';
import { classifyImageBytes } from './image-kind.ts';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('classifyImageBytes', () => {
  it.each([
    ['png', bytes([0x89], 'PNG\r\n\x1a\n', '<svg>')],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], '<svg>')],
    ['gif', bytes('GIF89a<svg>')],
    ['gif', bytes('GIF87a')],
    ['webp', bytes('RIFF\x10\x00\x00\x00WEBPVP8 ')],
  ])('recognises %s by its signature, whatever follows', (kind, input) => {
    expect(classifyImageBytes(input)).toBe(kind);
  });

  it('sends any markup to the checked SVG path, after a BOM, whitespace or a long comment', () => {
    expect(classifyImageBytes(bytes('<svg/>'))).toBe('svg');
    expect(classifyImageBytes(bytes([0xef, 0xbb, 0xbf], ' \n\t<?xml version="1.0"?><svg/>'))).toBe('svg');
    expect(classifyImageBytes(bytes(`<!--${'x'.repeat(10_000)}--><svg/>`))).toBe('svg');
    expect(classifyImageBytes(bytes('<html></html>'))).toBe('svg');
  });

  it('refuses everything else', () => {
    for (const input of [
      bytes('BM\x00\x00'),
      bytes([0, 0, 1, 0]),
      bytes('hello <svg/>'),
      bytes(''),
      bytes('RIFFxxxxWAVE'),
    ])
      expect(classifyImageBytes(input)).toBeNull();
  });
});
