import { describe, expect, it } from 'vitest';
import { colorSchema, parseColor, toCssRgba } from './color.ts';

describe('parseColor', () => {
  const cases: [string, { r: number; g: number; b: number; a: number }][] = [
    ['#f00', { r: 255, g: 0, b: 0, a: 1 }],
    ['#F4EFE6', { r: 244, g: 239, b: 230, a: 1 }],
    ['#ffffffee', { r: 255, g: 255, b: 255, a: 0xee / 255 }],
    ['rgb(1, 2, 3)', { r: 1, g: 2, b: 3, a: 1 }],
    ['rgba(10,20,30,0.5)', { r: 10, g: 20, b: 30, a: 0.5 }],
    ['RGBA(10, 20, 30, 50%)', { r: 10, g: 20, b: 30, a: 0.5 }],
    ['rgb(100% 0% 50% / 0.25)', { r: 255, g: 0, b: 128, a: 0.25 }],
    ['transparent', { r: 0, g: 0, b: 0, a: 0 }],
  ];
  it.each(cases)('%s', (text, expected) => {
    expect(parseColor(text)).toEqual(expected);
  });

  const invalid = [
    '',
    'red',
    '#ff',
    '#fffff',
    '#ggg',
    '#ff00ff0',
    'rgb(256, 0, 0)',
    'rgb(1, 2)',
    'rgba(1, 2, 3, 2)',
    'rgb(-1, 0, 0)',
    'hsl(0, 0%, 0%)',
    `#${'f'.repeat(100)}`,
  ];
  it.each(invalid)('refuses %j', (text) => {
    expect(parseColor(text)).toBeNull();
    expect(colorSchema.safeParse(text).success).toBe(false);
  });

  it('formats a colour every canvas understands', () => {
    const color = parseColor('#ffffff80');
    expect(color && toCssRgba(color)).toBe('rgba(255, 255, 255, 0.502)');
  });
});
