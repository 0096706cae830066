/**
 * Golden: rich text (design document version 2). Spans that wrap across their boundaries, spans
 * that auto-fit together, one paragraph mixing Latin, Arabic, CJK and emoji, a right-to-left
 * paragraph of spans, and span decorations (underline, strike, background, letter spacing, sizes);
 * then text paint and outline: linear and radial gradients over the element box (inherited by
 * spans without a colour), glyph strokes under the fill, and a highlight box behind each line.
 */
import { describe, expect, it } from 'vitest';
import { compareGolden, renderPng } from './harness.ts';
import { richTextDocument, textEffectsDocument } from './rich-text-documents.ts';

describe('rich text', () => {
  it('matches the golden', async () => {
    const file = await renderPng(richTextDocument);
    const result = await compareGolden('rich-text', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });

  it('matches the golden for gradients, outlines and highlights', async () => {
    const file = await renderPng(textEffectsDocument);
    const result = await compareGolden('rich-text-effects', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });
});
