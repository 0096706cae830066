/**
 * SVG basic shapes and paths as path data, with the bounding box that objectBoundingBox
 * gradients need (known exactly for basic shapes; `null` for free paths, whose bbox-relative
 * gradients make the caller rasterise instead).
 */
import { ellipsePath, num } from '../geometry.ts';
import { parseLength, parseNumberList, SvgUnsupported } from './values.ts';
import type { XmlElement } from './xml.ts';

export interface ShapeGeometry {
  d: string;
  bbox: { x: number; y: number; width: number; height: number } | null;
}

function roundedRect(x: number, y: number, w: number, h: number, rxIn: number, ryIn: number): string {
  const rx = Math.min(rxIn, w / 2);
  const ry = Math.min(ryIn, h / 2);
  if (rx <= 0 || ry <= 0) return `M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}Z`;
  const arc = (ex: number, ey: number): string => `A${num(rx)} ${num(ry)} 0 0 1 ${num(ex)} ${num(ey)}`;
  return (
    `M${num(x + rx)} ${num(y)}H${num(x + w - rx)}${arc(x + w, y + ry)}V${num(y + h - ry)}` +
    `${arc(x + w - rx, y + h)}H${num(x + rx)}${arc(x, y + h - ry)}V${num(y + ry)}${arc(x + rx, y)}Z`
  );
}

function pointsPath(points: string | undefined, close: boolean): ShapeGeometry {
  const values = parseNumberList(points ?? '');
  if (values.length < 4) return { d: '', bbox: null };
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i + 1 < values.length; i += 2) {
    xs.push(values[i] ?? 0);
    ys.push(values[i + 1] ?? 0);
  }
  const d =
    xs.map((x, i) => `${i === 0 ? 'M' : 'L'}${num(x)} ${num(ys[i] ?? 0)}`).join('') + (close ? 'Z' : '');
  const [minX, minY] = [Math.min(...xs), Math.min(...ys)];
  return { d, bbox: { x: minX, y: minY, width: Math.max(...xs) - minX, height: Math.max(...ys) - minY } };
}

export function shapeGeometry(node: XmlElement): ShapeGeometry {
  const a = node.attrs;
  const len = (name: string, fallback = 0): number => parseLength(a[name], fallback);
  switch (node.name) {
    case 'path':
      return { d: a.d ?? '', bbox: null };
    case 'rect': {
      const [x, y, width, height] = [len('x'), len('y'), len('width'), len('height')];
      if (width <= 0 || height <= 0) return { d: '', bbox: null };
      const rxRaw = a.rx === undefined || a.rx === 'auto' ? undefined : len('rx');
      const ryRaw = a.ry === undefined || a.ry === 'auto' ? undefined : len('ry');
      const rx = rxRaw ?? ryRaw ?? 0;
      const ry = ryRaw ?? rxRaw ?? 0;
      return { d: roundedRect(x, y, width, height, rx, ry), bbox: { x, y, width, height } };
    }
    case 'circle': {
      const [cx, cy, r] = [len('cx'), len('cy'), len('r')];
      return { d: ellipsePath(cx, cy, r, r), bbox: { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r } };
    }
    case 'ellipse': {
      const [cx, cy, rx, ry] = [len('cx'), len('cy'), len('rx'), len('ry')];
      return {
        d: ellipsePath(cx, cy, rx, ry),
        bbox: { x: cx - rx, y: cy - ry, width: 2 * rx, height: 2 * ry },
      };
    }
    case 'line': {
      const [x1, y1, x2, y2] = [len('x1'), len('y1'), len('x2'), len('y2')];
      const bbox = {
        x: Math.min(x1, x2),
        y: Math.min(y1, y2),
        width: Math.abs(x2 - x1),
        height: Math.abs(y2 - y1),
      };
      return { d: `M${num(x1)} ${num(y1)}L${num(x2)} ${num(y2)}`, bbox };
    }
    case 'polyline':
      return pointsPath(a.points, false);
    case 'polygon':
      return pointsPath(a.points, true);
    default:
      throw new SvgUnsupported(`<${node.name}>`);
  }
}
