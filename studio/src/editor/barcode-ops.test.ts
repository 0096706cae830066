import { describe, expect, it } from 'vitest';
import { barcodeFormats } from '../../../src/engine/browser.ts';
import { BARCODE_SAMPLES, barcodeValueRefusal, formatPatch } from './barcode-ops.ts';

describe('barcode editing', () => {
  it('has a sample every format encodes', () => {
    for (const format of barcodeFormats)
      expect([format, barcodeValueRefusal(format, BARCODE_SAMPLES[format])]).toEqual([format, null]);
  });

  it('keeps a value the new format takes and brings a sample otherwise', () => {
    expect(formatPatch({ value: 'HELLO' }, 'code39')).toEqual({ format: 'code39' });
    expect(formatPatch({ value: 'PLATEN-0001' }, 'ean13')).toEqual({
      format: 'ean13',
      value: '4006381333931',
    });
    expect(barcodeValueRefusal('ean13', '4006381333932')).toMatch(/check digit/i);
  });
});
