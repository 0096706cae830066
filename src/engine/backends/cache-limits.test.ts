import { describe, expect, it } from 'vitest';
import {
  CACHE_SCALE_VARIABLE,
  cacheBytes,
  RENDER_PROCESS_RESERVE_MB,
  renderCacheScale,
} from './cache-limits.ts';

const MB = 1024 * 1024;
/** The defaults add up to 640 MB. */
const DEFAULTS_MB = 640;

describe('render cache budgets under the recycling limit', () => {
  it('keeps the budgets whole when they fit beside the reserve', () => {
    expect(renderCacheScale(RENDER_PROCESS_RESERVE_MB + DEFAULTS_MB, {})).toBe(1);
    expect(renderCacheScale(4000, {})).toBe(1);
  });

  it('shrinks them in proportion when they do not, never below a sixteenth', () => {
    expect(renderCacheScale(600, {})).toBeCloseTo((600 - RENDER_PROCESS_RESERVE_MB) / DEFAULTS_MB, 10);
    // Budgets set by the operator count too.
    expect(renderCacheScale(600, { PLATEN_CACHE_DECODED_IMAGES_MB: '1160' })).toBeCloseTo(300 / 1640, 10);
    expect(renderCacheScale(RENDER_PROCESS_RESERVE_MB, {})).toBe(1 / 16);
  });

  it('applies the share a render process was given to every budget', () => {
    expect(cacheBytes('decodedImages', {})).toBe(160 * MB);
    expect(cacheBytes('decodedImages', { [CACHE_SCALE_VARIABLE]: '0.5' })).toBe(80 * MB);
    expect(
      cacheBytes('renderBases', { [CACHE_SCALE_VARIABLE]: '0.5', PLATEN_CACHE_RENDER_BASES_MB: '10' }),
    ).toBe(5 * MB);
    // Anything but a share in (0, 1) leaves the budget as configured.
    for (const odd of ['0', '-1', '2', 'x', ''])
      expect(cacheBytes('drawables', { [CACHE_SCALE_VARIABLE]: odd })).toBe(128 * MB);
  });
});
