import { describe, expect, it } from 'vitest';
import { visualOrder } from './bidi.ts';

const pieces = (...texts: string[]) => texts.map((text, style) => ({ text, style }));

describe('visual order of a line’s pieces', () => {
  it('keeps a left-to-right line in logical order', () => {
    expect(visualOrder(pieces('Hello ', 'bold', ' world'), 'ltr')).toEqual([0, 1, 2]);
  });

  it('lays a right-to-left paragraph right to left', () => {
    expect(visualOrder(pieces('مرحبا ', 'بالعالم', ' نص'), 'rtl')).toEqual([2, 1, 0]);
  });

  it('reverses an Arabic stretch of several pieces, spaces between them included, in a Latin line', () => {
    expect(visualOrder(pieces('Hello ', 'مرحبا', ' ', 'بالعالم', ' end'), 'ltr')).toEqual([0, 3, 2, 1, 4]);
  });

  it('keeps a Latin stretch in reading order inside a right-to-left line', () => {
    expect(visualOrder(pieces('نص ', 'Hello', ' ', 'world', ' نص'), 'rtl')).toEqual([4, 1, 2, 3, 0]);
  });
});
