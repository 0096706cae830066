/**
 * Editing a paint (a colour, or a linear or radial gradient of 2-16 stops): switching kind keeps
 * the colours (a solid colour becomes a gradient from it to white; a gradient becomes its first
 * stop's colour), stops are added in the widest gap with the colour of their left neighbour,
 * removed down to two, and kept in offset order.
 */
import {
  type DocumentPaint,
  designBounds,
  type Gradient,
  type GradientStop,
} from '../../../src/engine/browser.ts';

export type PaintKind = 'solid' | 'linear' | 'radial';

export const MIN_STOPS = 2;
export const MAX_STOPS = designBounds.gradientStops;

export function paintKind(paint: DocumentPaint): PaintKind {
  return typeof paint === 'string' ? 'solid' : paint.type;
}

/** A colour standing for the paint where one colour is needed (a swatch, a CSS preview). */
export function firstColor(paint: DocumentPaint): string {
  return typeof paint === 'string' ? paint : (paint.stops[0]?.color ?? '#000000');
}

export function withKind(paint: DocumentPaint, kind: PaintKind): DocumentPaint {
  if (kind === paintKind(paint)) return paint;
  if (kind === 'solid') return firstColor(paint);
  const stops: GradientStop[] =
    typeof paint === 'string'
      ? [
          { offset: 0, color: paint },
          { offset: 1, color: '#ffffff' },
        ]
      : paint.stops.map((s) => ({ ...s }));
  return kind === 'linear' ? { type: 'linear', angle: 180, stops } : { type: 'radial', stops };
}

const byOffset = (a: GradientStop, b: GradientStop) => a.offset - b.offset;

/** A stop added in the middle of the widest gap between stops; unchanged at 16 stops. */
export function addStop(gradient: Gradient): Gradient {
  if (gradient.stops.length >= MAX_STOPS) return gradient;
  const stops = [...gradient.stops].sort(byOffset);
  let at = 0;
  let widest = -1;
  for (let i = 0; i + 1 < stops.length; i++) {
    const gap = (stops[i + 1]?.offset ?? 0) - (stops[i]?.offset ?? 0);
    if (gap > widest) {
      widest = gap;
      at = i;
    }
  }
  const left = stops[at] ?? { offset: 0, color: '#000000' };
  const offset = Math.round((left.offset + Math.max(0, widest) / 2) * 1000) / 1000;
  stops.splice(at + 1, 0, { offset, color: left.color });
  return { ...gradient, stops };
}

/** The gradient without stop `index`; unchanged at two stops. */
export function removeStop(gradient: Gradient, index: number): Gradient {
  if (gradient.stops.length <= MIN_STOPS) return gradient;
  return { ...gradient, stops: gradient.stops.filter((_, i) => i !== index) };
}

/** Stop `index` changed, the stops kept in offset order. */
export function setStop(gradient: Gradient, index: number, patch: Partial<GradientStop>): Gradient {
  const stops = gradient.stops.map((s, i) =>
    i === index ? { ...s, ...patch, offset: Math.max(0, Math.min(1, patch.offset ?? s.offset)) } : s,
  );
  return { ...gradient, stops: stops.sort(byOffset) };
}

/** A CSS image of the paint, for previews in the panels. */
export function cssPaint(paint: DocumentPaint): string {
  if (typeof paint === 'string') return paint;
  const stops = paint.stops.map((s) => `${s.color} ${Math.round(s.offset * 1000) / 10}%`).join(', ');
  return paint.type === 'linear'
    ? `linear-gradient(${paint.angle}deg, ${stops})`
    : `radial-gradient(circle farthest-corner, ${stops})`;
}
