/**
 * Document paints (a colour or a gradient, design document version 2) → draw-op paints over a box
 * in page units. Linear gradients follow CSS `linear-gradient(<angle>)`: the gradient line passes
 * through the box centre at `angle` (0 up, 90 right, clockwise) and is as long as the box's
 * projection on it, so 0 % and 100 % touch opposite corners. Radial: centred, reaching the farthest
 * corner (CSS `circle farthest-corner`).
 */
import { type DocumentPaint, parseColor, toCssRgba } from '../../design/index.ts';
import type { Box } from './geometry.ts';
import type { GradientStop, Paint } from './types.ts';

function cssColor(color: string): string | null {
  const parsed = parseColor(color);
  return parsed ? toCssRgba(parsed) : null;
}

/** Stops sorted by offset (stable), as CSS and Canvas both read them. */
function stopsOf(stops: readonly { offset: number; color: string }[]): GradientStop[] {
  return stops
    .map((stop, index) => ({ stop, index }))
    .sort((a, b) => a.stop.offset - b.stop.offset || a.index - b.index)
    .map(({ stop }) => ({ offset: stop.offset, color: cssColor(stop.color) ?? 'rgba(0, 0, 0, 0)' }));
}

/** The paint for `paint` over `box`, or null when it draws nothing (a fully transparent colour). */
export function paintFor(paint: DocumentPaint, box: Box): Paint | null {
  if (typeof paint === 'string') {
    const parsed = parseColor(paint);
    return parsed && parsed.a > 0 ? toCssRgba(parsed) : null;
  }
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const stops = stopsOf(paint.stops);
  if (stops.every((stop) => stop.color === 'rgba(0, 0, 0, 0)')) return null;
  if (paint.type === 'radial') {
    const r = Math.max(Math.hypot(box.width, box.height) / 2, 1e-6);
    return { kind: 'radial', cx, cy, r, fx: cx, fy: cy, stops };
  }
  const radians = (paint.angle * Math.PI) / 180;
  const dx = Math.sin(radians);
  const dy = -Math.cos(radians);
  const half = (Math.abs(box.width * dx) + Math.abs(box.height * dy)) / 2;
  return {
    kind: 'linear',
    x0: cx - dx * half,
    y0: cy - dy * half,
    x1: cx + dx * half,
    y1: cy + dy * half,
    stops,
  };
}
