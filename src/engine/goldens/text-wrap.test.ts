/**
 * Golden: word wrap with Unicode line-break rules, a word too long for its box, explicit
 * newlines, maxLines with an ellipsis, line height, letter spacing and text-transform.
 */
import { describe, expect, it } from 'vitest';
import { compareGolden, pageDocument, renderPng } from './harness.ts';

const box = { type: 'text', width: 260, height: 150, fontFamily: 'Inter', fontSize: 20, color: '#1d1d35' };

const doc = pageDocument({
  width: 600,
  height: 520,
  background: '#ffffff',
  elements: [
    { id: 'guide1', type: 'rect', x: 20, y: 20, width: 260, height: 150, fill: '#f1f1f6' },
    {
      ...box,
      id: 'wrap',
      x: 20,
      y: 20,
      text: 'Word wrap follows Unicode line-break rules: well-known hyphenated-words, and (parentheses) stay together.',
    },
    { id: 'guide2', type: 'rect', x: 320, y: 20, width: 260, height: 150, fill: '#f1f1f6' },
    { ...box, id: 'long', x: 320, y: 20, text: 'Supercalifragilisticexpialidocious-and-then-some is long.' },
    { id: 'guide3', type: 'rect', x: 20, y: 190, width: 260, height: 150, fill: '#f1f1f6' },
    {
      ...box,
      id: 'newlines',
      x: 20,
      y: 190,
      text: 'First line\n\nThird line after an empty one\nLast',
      lineHeight: 1.6,
    },
    { id: 'guide4', type: 'rect', x: 320, y: 190, width: 260, height: 150, fill: '#f1f1f6' },
    {
      ...box,
      id: 'ellipsis',
      x: 320,
      y: 190,
      maxLines: 2,
      text: 'Only two lines are allowed here, so everything after the second line is cut with an ellipsis.',
    },
    { id: 'guide5', type: 'rect', x: 20, y: 360, width: 260, height: 140, fill: '#f1f1f6' },
    {
      ...box,
      id: 'spacing',
      x: 20,
      y: 360,
      letterSpacing: 4,
      textTransform: 'uppercase',
      fontWeight: 700,
      text: 'Letter spacing and upper case',
    },
    { id: 'guide6', type: 'rect', x: 320, y: 360, width: 260, height: 140, fill: '#f1f1f6' },
    {
      ...box,
      id: 'capitalize',
      x: 320,
      y: 360,
      textTransform: 'capitalize',
      fontStyle: 'italic',
      text: 'every word capitalised, in italic 日本語も折り返します',
    },
  ],
});

describe('text wrapping', () => {
  it('matches the golden', async () => {
    const file = await renderPng(doc);
    const result = await compareGolden('text-wrap', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
    expect(result.pass).toBe(true);
  });
});
