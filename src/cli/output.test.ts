import { describe, expect, it } from 'vitest';
import { printable } from './output.ts';

describe('printable', () => {
  it('shows control characters escaped, so a name cannot drive the terminal', () => {
    expect(printable('Promo \u001b[2J\u001b]0;owned\u0007 card')).toBe(
      'Promo \\u001b[2J\\u001b]0;owned\\u0007 card',
    );
    expect(printable('a\u009bb')).toBe('a\\u009bb');
    expect(printable('Café → 72 «ok»')).toBe('Café → 72 «ok»');
  });
});
