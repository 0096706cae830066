import { describe, expect, it } from 'vitest';
import { nulPath } from './nul-guard.ts';

describe('nulPath', () => {
  it('finds U+0000 in nested strings and keys, and ignores bytes', () => {
    expect(nulPath({ a: 'x', b: ['y', { c: 'z\u0000' }] }, 'body')).toBe('body.b[1].c');
    expect(nulPath({ 'k\u0000': 1 }, 'body')).toBe('body.k\\0');
    expect(nulPath({ a: 'plain', n: 1, t: true, z: null }, 'body')).toBeNull();
    expect(nulPath(Buffer.from([0, 1, 2]), 'body')).toBeNull();
  });
});
