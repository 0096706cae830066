/**
 * QR code layout: the `qrcode` package's module matrix (error correction M) drawn as one vector
 * path of dark squares (horizontal runs merged, so no hairline seams appear between modules),
 * centred as a square in the element box over the background colour, with a 2-module quiet zone.
 */
import QRCode from 'qrcode';
import { parseColor, type QrElement, toCssRgba } from '../../design/index.ts';
import { num, rectPath } from './geometry.ts';
import type { DrawOp } from './types.ts';

export const QR_QUIET_ZONE = 2;

function cssColor(text: string, fallback: string): string {
  const parsed = parseColor(text);
  return parsed ? toCssRgba(parsed) : fallback;
}

/** Path data for the dark modules of a size×size matrix, one subpath per horizontal run. */
export function qrModulesPath(
  data: ArrayLike<number>,
  size: number,
  x0: number,
  y0: number,
  cell: number,
): string {
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[row * size + col]) col++;
      const x = x0 + start * cell;
      const y = y0 + row * cell;
      parts.push(
        `M${num(x)} ${num(y)}h${num((col - start) * cell)}v${num(cell)}h${num(-(col - start) * cell)}Z`,
      );
    }
  }
  return parts.join('');
}

export function layoutQr(el: QrElement): DrawOp[] {
  const qr = QRCode.create(el.value, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const side = Math.min(el.width, el.height);
  const cell = side / (size + 2 * QR_QUIET_ZONE);
  const x0 = el.x + (el.width - side) / 2 + QR_QUIET_ZONE * cell;
  const y0 = el.y + (el.height - side) / 2 + QR_QUIET_ZONE * cell;
  const ops: DrawOp[] = [];
  const background = cssColor(el.background, 'rgba(255, 255, 255, 1)');
  ops.push({
    op: 'path',
    d: rectPath(el.x, el.y, el.width, el.height),
    fill: { paint: background, alpha: 1, rule: 'nonzero' },
  });
  const d = qrModulesPath(qr.modules.data, size, x0, y0, cell);
  if (d)
    ops.push({
      op: 'path',
      d,
      fill: { paint: cssColor(el.color, 'rgba(0, 0, 0, 1)'), alpha: 1, rule: 'nonzero' },
    });
  return ops;
}
