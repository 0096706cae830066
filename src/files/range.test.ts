/** Range header parsing and fitting (RFC 9110 section 14), the pure half of serving byte ranges. */
import { describe, expect, it } from 'vitest';
import { parseRange, resolveRange } from './range.ts';

describe('parseRange', () => {
  it('reads the three single-range forms', () => {
    expect(parseRange('bytes=0-99')).toEqual({ first: 0, last: 99 });
    expect(parseRange('bytes=100-')).toEqual({ first: 100, last: null });
    expect(parseRange('bytes=-500')).toEqual({ suffix: 500 });
    expect(parseRange('bytes=7-7')).toEqual({ first: 7, last: 7 });
  });

  it('takes the unit in any case, whitespace around the range and empty list elements', () => {
    expect(parseRange('Bytes=0-1')).toEqual({ first: 0, last: 1 });
    expect(parseRange('bytes= 5-9 ')).toEqual({ first: 5, last: 9 });
    expect(parseRange('bytes=5-9, ,')).toEqual({ first: 5, last: 9 });
  });

  it('ignores (null) what is absent, malformed, invalid, another unit or several ranges', () => {
    for (const header of [
      undefined,
      '',
      'bytes',
      'bytes=',
      'bytes=-',
      'bytes=a-b',
      'bytes=1-2-3',
      'bytes=+1-2',
      'bytes=0x10-',
      'bytes=-1.5',
      'bytes 0-99',
      'items=0-9',
      'bytes=10-5',
      'bytes=0-1,5-6',
      'bytes=0-1,-5',
    ]) {
      expect(parseRange(header), String(header)).toBeNull();
    }
  });
});

describe('resolveRange', () => {
  it('keeps a range inside the file and stops an end past it at the last byte', () => {
    expect(resolveRange({ first: 0, last: 99 }, 1000)).toEqual({ start: 0, end: 99 });
    expect(resolveRange({ first: 900, last: 5000 }, 1000)).toEqual({ start: 900, end: 999 });
    expect(resolveRange({ first: 999, last: null }, 1000)).toEqual({ start: 999, end: 999 });
  });

  it('takes a suffix from the end, the whole file when it is longer', () => {
    expect(resolveRange({ suffix: 100 }, 1000)).toEqual({ start: 900, end: 999 });
    expect(resolveRange({ suffix: 5000 }, 1000)).toEqual({ start: 0, end: 999 });
  });

  it('finds a start at or past the end, or an empty suffix, unsatisfiable', () => {
    expect(resolveRange({ first: 1000, last: null }, 1000)).toBe('unsatisfiable');
    expect(resolveRange({ first: 2000, last: 3000 }, 1000)).toBe('unsatisfiable');
    expect(resolveRange(parseRange(`bytes=${'9'.repeat(40)}-`) ?? { suffix: 1 }, 1000)).toBe('unsatisfiable');
    expect(resolveRange({ suffix: 0 }, 1000)).toBe('unsatisfiable');
  });

  it('sends an empty file whole (null): no range of it can be written', () => {
    expect(resolveRange({ first: 0, last: null }, 0)).toBeNull();
    expect(resolveRange({ suffix: 10 }, 0)).toBeNull();
  });
});
