/**
 * Barcode editing rules: a value is checked with the engine's own encoder before it is stored (the
 * render would refuse it with 422 BARCODE_INVALID, and the canvas would draw nothing), and picking
 * a format the current value does not fit brings a sample value that does, so the switch works
 * in one step and the person then types their own.
 */
import { type BarcodeElement, type BarcodeFormat, barcodeProblem } from '../../../src/engine/browser.ts';
// The engine's encoder check (pure: bwip-js and the layout code the canvas already draws with).

export const BARCODE_SAMPLES: Record<BarcodeFormat, string> = {
  code128: 'PLATEN-0001',
  ean13: '4006381333931',
  upca: '036000291452',
  code39: 'PLATEN-1',
  itf14: '10012345678902',
  datamatrix: 'PLATEN-0001',
  pdf417: 'PLATEN-0001',
};

/** Why `value` cannot be drawn as `format`, or null. */
export function barcodeValueRefusal(format: BarcodeFormat, value: string): string | null {
  return barcodeProblem({ format, value });
}

/** The patch for a new format: the value kept when it fits, else the format's sample. */
export function formatPatch(el: Pick<BarcodeElement, 'value'>, format: BarcodeFormat) {
  return barcodeValueRefusal(format, el.value) === null
    ? { format }
    : { format, value: BARCODE_SAMPLES[format] };
}
