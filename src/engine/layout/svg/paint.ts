/**
 * Resolves SVG paints to layout paints: solid colours with their opacity folded in, and
 * linear/radial gradients (pad spread, no gradientTransform, no href inheritance) in user space.
 * Gradients in objectBoundingBox units are mapped through the shape's box when it is known.
 */
import { type Rgba, toCssRgba } from '../../../design/index.ts';
import type { GradientStop, Paint } from '../types.ts';
import type { ShapeGeometry } from './shapes.ts';
import {
  parseFraction,
  parsePaint,
  parseStyleAttribute,
  parseSvgColor,
  type SvgPaint,
  SvgUnsupported,
} from './values.ts';
import type { XmlElement } from './xml.ts';

export interface ResolvedPaint {
  paint: Paint;
  alpha: number;
}

function stopsOf(gradient: XmlElement, current: Rgba): GradientStop[] {
  const stops: GradientStop[] = [];
  let lastOffset = 0;
  for (const stop of gradient.children) {
    if (stop.name !== 'stop') continue;
    const style = { ...stop.attrs, ...parseStyleAttribute(stop.attrs.style) };
    // Offsets never go backwards (SVG clamps each to the largest seen so far).
    const offset = Math.max(lastOffset, Math.min(1, Math.max(0, parseFraction(style.offset, 0))));
    lastOffset = offset;
    const color = parseSvgColor(style['stop-color'] ?? 'black', current);
    const opacity = Math.min(1, Math.max(0, parseFraction(style['stop-opacity'], 1)));
    stops.push({ offset, color: toCssRgba({ ...color, a: color.a * opacity }) });
  }
  return stops;
}

function gradientPaint(gradient: XmlElement, geometry: ShapeGeometry, current: Rgba): Paint {
  const a = gradient.attrs;
  if (a.gradientTransform || a.href || a['xlink:href'])
    throw new SvgUnsupported('gradient transform or href');
  if (a.spreadMethod && a.spreadMethod !== 'pad') throw new SvgUnsupported('gradient spreadMethod');
  const userSpace = a.gradientUnits === 'userSpaceOnUse';
  if (userSpace && Object.values(a).some((value) => value.trim().endsWith('%'))) {
    throw new SvgUnsupported('percentage in a userSpaceOnUse gradient');
  }
  const box = userSpace ? { x: 0, y: 0, width: 1, height: 1 } : geometry.bbox;
  if (!box) throw new SvgUnsupported('objectBoundingBox gradient on a path');
  const px = (name: string, fallback: number): number => box.x + parseFraction(a[name], fallback) * box.width;
  const py = (name: string, fallback: number): number =>
    box.y + parseFraction(a[name], fallback) * box.height;
  const stops = stopsOf(gradient, current);
  if (gradient.name === 'linearGradient') {
    return { kind: 'linear', x0: px('x1', 0), y0: py('y1', 0), x1: px('x2', 1), y1: py('y2', 0), stops };
  }
  if (!userSpace && Math.abs(box.width - box.height) > 1e-6) {
    throw new SvgUnsupported('radial gradient on a non-square box');
  }
  const cx = px('cx', 0.5);
  const cy = py('cy', 0.5);
  const r = parseFraction(a.r, 0.5) * box.width;
  const fx = a.fx === undefined ? cx : px('fx', 0.5);
  const fy = a.fy === undefined ? cy : py('fy', 0.5);
  return { kind: 'radial', cx, cy, r, fx, fy, stops };
}

/** `null` means nothing to paint (none, or a fully transparent colour). */
export function resolvePaint(
  value: string,
  opacity: number,
  geometry: ShapeGeometry,
  current: Rgba,
  defs: ReadonlyMap<string, XmlElement>,
): ResolvedPaint | null {
  const paint: SvgPaint = parsePaint(value, current);
  if (paint.kind === 'none') return null;
  if (paint.kind === 'color') {
    const a = paint.color.a * opacity;
    return a <= 0 ? null : { paint: toCssRgba({ ...paint.color, a }), alpha: 1 };
  }
  const target = defs.get(paint.id);
  if (!target || (target.name !== 'linearGradient' && target.name !== 'radialGradient')) {
    throw new SvgUnsupported(`paint server #${paint.id}`);
  }
  const gradient = gradientPaint(target, geometry, current);
  const stops = gradient === null || typeof gradient === 'string' ? [] : gradient.stops;
  if (stops.length === 0) return null;
  return { paint: gradient, alpha: opacity };
}
