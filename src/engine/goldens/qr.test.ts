/**
 * QR codes: drawn as vector squares from the qrcode package's matrix. The render is read back
 * module by module and must equal the matrix (a real check that the code scans), plus a golden.
 */
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { QR_QUIET_ZONE } from '../layout/qr.ts';
import { compareGolden, pageDocument, renderPng } from './harness.ts';

const VALUE = 'https://example.com/sale?utm=platen';

describe('QR codes', () => {
  it('draws exactly the module matrix', async () => {
    const side = 290;
    const doc = pageDocument({
      width: 300,
      height: 300,
      background: '#ff00ff',
      elements: [
        {
          id: 'qr',
          type: 'qr',
          x: 5,
          y: 5,
          width: side,
          height: side,
          value: VALUE,
          color: '#1d1d35',
          background: '#ffffff',
        },
      ],
    });
    const file = await renderPng(doc);
    const png = PNG.sync.read(Buffer.from(file.bytes));
    const matrix = QRCode.create(VALUE, { errorCorrectionLevel: 'M' }).modules;
    const cell = side / (matrix.size + 2 * QR_QUIET_ZONE);
    let mismatches = 0;
    for (let row = 0; row < matrix.size; row++) {
      for (let col = 0; col < matrix.size; col++) {
        const x = Math.floor(5 + (QR_QUIET_ZONE + col + 0.5) * cell);
        const y = Math.floor(5 + (QR_QUIET_ZONE + row + 0.5) * cell);
        const dark = (png.data[(y * png.width + x) * 4] ?? 255) < 128;
        if (dark !== Boolean(matrix.get(row, col))) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
    const result = await compareGolden('qr', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });
});
