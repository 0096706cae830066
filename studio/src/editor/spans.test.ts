import { describe, expect, it } from 'vitest';
import { textElementSchema } from '../../../src/engine/browser.ts';
import {
  applyStyle,
  boldPatch,
  commonValue,
  contentFields,
  isBold,
  normalizeSpans,
  replaceRange,
  replaceText,
  spansOf,
} from './spans.ts';

describe('rich text spans', () => {
  it('plain text becomes spans on first styling, split at the selection', () => {
    const spans = spansOf({ text: 'Hello brave world', spans: undefined });
    const bold = applyStyle(spans, 6, 11, { fontWeight: 700 });
    expect(bold).toEqual([{ text: 'Hello ' }, { text: 'brave', fontWeight: 700 }, { text: ' world' }]);
    const coloured = applyStyle(bold, 8, 17, { color: '#ff0000' });
    expect(coloured).toEqual([
      { text: 'Hello ' },
      { text: 'br', fontWeight: 700 },
      { text: 'ave', fontWeight: 700, color: '#ff0000' },
      { text: ' world', color: '#ff0000' },
    ]);
  });

  it('merges adjacent equal spans and goes back to plain text when nothing is styled', () => {
    const spans = applyStyle([{ text: 'abc' }, { text: 'def', fontWeight: 700 }], 3, 6, {
      fontWeight: undefined,
    });
    expect(spans).toEqual([{ text: 'abcdef' }]);
    expect(contentFields(spans)).toEqual({ text: 'abcdef', spans: undefined });
    expect(
      normalizeSpans([
        { text: 'a', link: 'https://x.io' },
        { text: '' },
        { text: 'b', link: 'https://x.io' },
      ]),
    ).toEqual([{ text: 'ab', link: 'https://x.io' }]);
    const rich = contentFields([{ text: 'a' }, { text: 'b', fontStyle: 'italic' }]);
    expect(rich.text).toBe('');
    // What the editor stores is what the schema accepts.
    expect(
      textElementSchema.safeParse({ id: 't', type: 'text', x: 0, y: 0, width: 10, height: 10, ...rich })
        .success,
    ).toBe(true);
  });

  it('reads the common style of a range and toggles bold against the element', () => {
    const spans = [{ text: 'ab' }, { text: 'cd', fontWeight: 700 }];
    expect(isBold({ fontWeight: 400 }, spans, 2, 4)).toBe(true);
    expect(isBold({ fontWeight: 400 }, spans, 1, 4)).toBe(false);
    expect(commonValue(spans, 2, 4, 'fontWeight')).toBe(700);
    expect(commonValue(spans, 0, 4, 'fontWeight')).toBeUndefined();
    // A span equal to its element inherits instead of repeating the value.
    expect(boldPatch({ fontWeight: 700 }, true)).toEqual({ fontWeight: undefined });
    expect(boldPatch({ fontWeight: 400 }, false)).toEqual({ fontWeight: undefined });
    expect(boldPatch({ fontWeight: 400 }, true)).toEqual({ fontWeight: 700 });
  });

  it('replaces text in a range in the style of the character before it', () => {
    const spans = [{ text: 'Hello ' }, { text: 'world', fontWeight: 700 }];
    expect(replaceRange(spans, 11, 11, '!')).toEqual([
      { text: 'Hello ' },
      { text: 'world!', fontWeight: 700 },
    ]);
    expect(replaceRange(spans, 0, 5, 'Hi')).toEqual([{ text: 'Hi ' }, { text: 'world', fontWeight: 700 }]);
    expect(replaceRange(spans, 4, 8, '')).toEqual([{ text: 'Hell' }, { text: 'rld', fontWeight: 700 }]);
  });

  it('edits plain text of a styled element keeping the untouched styles', () => {
    const spans = [{ text: 'Save ' }, { text: '20%', fontWeight: 700, color: '#e11d48' }, { text: ' today' }];
    expect(replaceText(spans, 'Save 30% today')).toEqual([
      { text: 'Save ' },
      { text: '30%', fontWeight: 700, color: '#e11d48' },
      { text: ' today' },
    ]);
    expect(replaceText(spans, 'Save 20% now')).toEqual([
      { text: 'Save ' },
      { text: '20%', fontWeight: 700, color: '#e11d48' },
      { text: ' now' },
    ]);
  });
});
