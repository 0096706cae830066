/** Golden: colour emoji (Twemoji COLR) inline with text, including ZWJ sequences, flags and skin tones. */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { compareGolden, pageDocument, renderPng } from './harness.ts';

const doc = pageDocument({
  width: 520,
  height: 200,
  background: '#ffffff',
  elements: [
    {
      id: 'line',
      type: 'text',
      x: 20,
      y: 20,
      width: 480,
      height: 60,
      text: 'Launch day 🚀🎉 Hearts ❤️ Family 👩‍👩‍👧',
      fontFamily: 'Inter',
      fontSize: 26,
      color: '#111111',
    },
    {
      id: 'big',
      type: 'text',
      x: 20,
      y: 90,
      width: 480,
      height: 100,
      text: '👍🏽 🇫🇷 🏳️‍🌈 😀',
      fontFamily: 'Inter',
      fontSize: 64,
    },
  ],
});

describe('colour emoji', () => {
  it('draws emoji in colour, not as black outlines or boxes', async () => {
    const file = await renderPng(doc);
    const png = PNG.sync.read(Buffer.from(file.bytes));
    let colourful = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      const [r = 0, g = 0, b = 0] = [png.data[i], png.data[i + 1], png.data[i + 2]];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 80) colourful++;
    }
    // The text is near-black: saturated pixels can only come from colour glyphs.
    expect(colourful).toBeGreaterThan(3000);
    const result = await compareGolden('emoji', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });
});
