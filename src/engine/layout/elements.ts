/**
 * One element → its draw operations, wrapped in a group that carries the element's rotation
 * (clockwise, about the box centre) and opacity. Shapes stroke centred on their outline, as SVG
 * does; images fit cover/contain/fill and clip to the (rounded) box.
 */
import {
  type Element,
  type EllipseElement,
  type ImageElement,
  type LineElement,
  parseColor,
  type RectElement,
  type SvgElement,
  toCssRgba,
} from '../../design/index.ts';
import { type Box, ellipsePath, fitBox, linePath, rectPath, rotationAbout } from './geometry.ts';
import { layoutQr } from './qr.ts';
import { planSvgDrawing, readSvg } from './svg/document.ts';
import { layoutText } from './text/layout-text.ts';
import type { DrawOp, FillStyle, ImageOp, LayoutEnv, StrokeStyle } from './types.ts';

/** Something the element needs is missing or refused; the page layout turns it into a failure. */
export class LayoutFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'LayoutFailure';
  }
}

/** Key under which the host registers the rasterised form of an inline SVG element. */
export const svgElementImageKey = (elementId: string): string => `svg-element:${elementId}`;

function css(color: string | null): string | null {
  if (color === null) return null;
  const parsed = parseColor(color);
  return parsed && parsed.a > 0 ? toCssRgba(parsed) : null;
}

function fillOf(color: string): FillStyle | undefined {
  const paint = css(color);
  return paint ? { paint, alpha: 1, rule: 'nonzero' } : undefined;
}

function strokeOf(color: string | null, width: number, dash: number[] = []): StrokeStyle | undefined {
  const paint = css(color);
  if (!paint || width <= 0) return undefined;
  return { paint, alpha: 1, width, dash, dashOffset: 0, cap: 'butt', join: 'miter', miterLimit: 10 };
}

function shape(d: string, fill: FillStyle | undefined, stroke: StrokeStyle | undefined): DrawOp[] {
  if (!d || (!fill && !stroke)) return [];
  return [{ op: 'path', d, ...(fill ? { fill } : {}), ...(stroke ? { stroke } : {}) }];
}

function rectOps(el: RectElement): DrawOp[] {
  return shape(
    rectPath(el.x, el.y, el.width, el.height, el.cornerRadius),
    fillOf(el.fill),
    strokeOf(el.stroke, el.strokeWidth),
  );
}

function ellipseOps(el: EllipseElement): DrawOp[] {
  const d = ellipsePath(el.x + el.width / 2, el.y + el.height / 2, el.width / 2, el.height / 2);
  return shape(d, fillOf(el.fill), strokeOf(el.stroke, el.strokeWidth));
}

function lineOps(el: LineElement): DrawOp[] {
  let dash = el.dash.every((value) => value === 0) ? [] : el.dash;
  if (dash.length % 2 === 1) dash = [...dash, ...dash];
  return shape(
    linePath(el.x, el.y, el.x + el.width, el.y + el.height),
    undefined,
    strokeOf(el.stroke, el.strokeWidth, dash),
  );
}

/** An image op for `key` fitted into `box`; clipped when it overflows or the corners are rounded. */
export function imageOps(
  key: string,
  box: Box,
  fit: 'cover' | 'contain' | 'fill',
  radius: number,
  env: LayoutEnv,
): DrawOp[] {
  const info = env.images.get(key);
  if (!info) throw new LayoutFailure('image was not loaded');
  const dest = fitBox(box, info.width, info.height, fit);
  const overflows = dest.width > box.width + 1e-6 || dest.height > box.height + 1e-6;
  const op: ImageOp = {
    op: 'image',
    key,
    ...dest,
    deviceWidth: Math.max(1, Math.round(dest.width * env.deviceScale)),
    deviceHeight: Math.max(1, Math.round(dest.height * env.deviceScale)),
  };
  if (overflows || radius > 0) op.clip = rectPath(box.x, box.y, box.width, box.height, radius);
  return [op];
}

function imageElementOps(el: ImageElement, env: LayoutEnv): DrawOp[] {
  return imageOps(el.src, el, el.fit, el.cornerRadius, env);
}

function svgOps(el: SvgElement, env: LayoutEnv): DrawOp[] {
  const plan = planSvgDrawing(readSvg(el.svg), el);
  if (plan.kind === 'vector') return [plan.op];
  const key = svgElementImageKey(el.id);
  const op: ImageOp = {
    op: 'image',
    key,
    ...plan.placement,
    deviceWidth: Math.max(1, Math.round(plan.placement.width * env.deviceScale)),
    deviceHeight: Math.max(1, Math.round(plan.placement.height * env.deviceScale)),
  };
  if (plan.clip) op.clip = rectPath(el.x, el.y, el.width, el.height);
  return [op];
}

function contentOps(el: Element, env: LayoutEnv): DrawOp[] {
  switch (el.type) {
    case 'text':
      return layoutText(el, env).runs;
    case 'image':
      return imageElementOps(el, env);
    case 'rect':
      return rectOps(el);
    case 'ellipse':
      return ellipseOps(el);
    case 'line':
      return lineOps(el);
    case 'svg':
      return svgOps(el, env);
    case 'qr':
      return layoutQr(el);
  }
}

/** The element's group, or null when it draws nothing. */
export function layoutElement(el: Element, env: LayoutEnv): DrawOp | null {
  if (!el.visible || el.opacity <= 0) return null;
  if (el.type !== 'line' && (el.width <= 0 || el.height <= 0)) return null;
  const children = contentOps(el, env);
  if (children.length === 0) return null;
  const rotation = el.rotation % 360;
  return {
    op: 'group',
    elementId: el.id,
    opacity: el.opacity,
    ...(rotation !== 0
      ? { transform: rotationAbout(rotation, el.x + el.width / 2, el.y + el.height / 2) }
      : {}),
    children,
  };
}
