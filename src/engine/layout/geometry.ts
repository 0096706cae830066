/**
 * Geometry shared by layout: SVG path data for the shapes elements are made of (rounded rects,
 * ellipses, lines), rotation about a centre as a matrix, and matrix products. Path data is the
 * exchange format because Skia and browsers both build a Path2D from it.
 */
import type { Matrix } from './types.ts';

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** Compact, stable number formatting for path data (4 decimals is far below a device pixel). */
export function num(value: number): string {
  const rounded = Math.round(value * 10_000) / 10_000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

export function rectPath(x: number, y: number, width: number, height: number, radius = 0): string {
  const r = Math.max(0, Math.min(radius, width / 2, height / 2));
  if (r <= 0) return `M${num(x)} ${num(y)}h${num(width)}v${num(height)}h${num(-width)}Z`;
  const arc = `A${num(r)} ${num(r)} 0 0 1`;
  return [
    `M${num(x + r)} ${num(y)}`,
    `H${num(x + width - r)}`,
    `${arc} ${num(x + width)} ${num(y + r)}`,
    `V${num(y + height - r)}`,
    `${arc} ${num(x + width - r)} ${num(y + height)}`,
    `H${num(x + r)}`,
    `${arc} ${num(x)} ${num(y + height - r)}`,
    `V${num(y + r)}`,
    `${arc} ${num(x + r)} ${num(y)}Z`,
  ].join('');
}

export function ellipsePath(cx: number, cy: number, rx: number, ry: number): string {
  if (rx <= 0 || ry <= 0) return '';
  const arc = `A${num(rx)} ${num(ry)} 0 1 0`;
  return `M${num(cx - rx)} ${num(cy)}${arc} ${num(cx + rx)} ${num(cy)}${arc} ${num(cx - rx)} ${num(cy)}Z`;
}

export function linePath(x1: number, y1: number, x2: number, y2: number): string {
  return `M${num(x1)} ${num(y1)}L${num(x2)} ${num(y2)}`;
}

/** a·b: apply b first, then a (as Canvas `transform` calls compose). */
export function multiply(a: Matrix, b: Matrix): Matrix {
  return [
    a[0] * b[0] + a[2] * b[1],
    a[1] * b[0] + a[3] * b[1],
    a[0] * b[2] + a[2] * b[3],
    a[1] * b[2] + a[3] * b[3],
    a[0] * b[4] + a[2] * b[5] + a[4],
    a[1] * b[4] + a[3] * b[5] + a[5],
  ];
}

export function translation(x: number, y: number): Matrix {
  return [1, 0, 0, 1, x, y];
}

export function scaling(sx: number, sy: number): Matrix {
  return [sx, 0, 0, sy, 0, 0];
}

/** Clockwise rotation by `degrees` (y points down) about (cx, cy). */
export function rotationAbout(degrees: number, cx: number, cy: number): Matrix {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  return [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy];
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where content of the given intrinsic size goes in a box for object-fit cover/contain/fill. */
export function fitBox(
  box: Box,
  contentWidth: number,
  contentHeight: number,
  fit: 'cover' | 'contain' | 'fill',
): Box {
  if (fit === 'fill' || contentWidth <= 0 || contentHeight <= 0) return box;
  const sx = box.width / contentWidth;
  const sy = box.height / contentHeight;
  const s = fit === 'cover' ? Math.max(sx, sy) : Math.min(sx, sy);
  const width = contentWidth * s;
  const height = contentHeight * s;
  return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height };
}

/**
 * An element's own transform about its box centre (cx, cy): mirrored first (flipX across the
 * vertical centre line, flipY across the horizontal one), then rotated clockwise by `degrees`, as
 * design tools compose them. Undefined when it is the identity.
 */
export function elementTransform(
  degrees: number,
  flipX: boolean,
  flipY: boolean,
  cx: number,
  cy: number,
): Matrix | undefined {
  const rotation = degrees % 360;
  if (!flipX && !flipY) return rotation === 0 ? undefined : rotationAbout(rotation, cx, cy);
  const flip = multiply(
    translation(cx, cy),
    multiply(scaling(flipX ? -1 : 1, flipY ? -1 : 1), translation(-cx, -cy)),
  );
  return rotation === 0 ? flip : multiply(rotationAbout(rotation, cx, cy), flip);
}

/** Uniform scaling about a point (motion's zoom, pop and `scale` keyframes). */
export function scaledAbout(factor: number, cx: number, cy: number): Matrix {
  return multiply(translation(cx, cy), multiply(scaling(factor, factor), translation(-cx, -cy)));
}
