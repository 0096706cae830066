/**
 * One element → its draw operations, wrapped in a group that carries the element's transform
 * (flips, then clockwise rotation, about the box centre), opacity and effects (shadow, blur).
 * Shapes stroke centred on their outline, as SVG does; images crop, then fit cover/contain/fill,
 * and clip to the (rounded) box. A design group lays its children out in its own box's
 * coordinates: its op's transform places that box on the page, and its clip is the box.
 */
import {
  type Element,
  type EllipseElement,
  type GroupElement,
  type ImageElement,
  type LineElement,
  parseColor,
  type RectElement,
  type SvgElement,
  toCssRgba,
  videoFrameKey,
} from '../../design/index.ts';
import { layoutBarcode } from './barcode.ts';
import { LayoutFailure } from './failure.ts';
import {
  type Box,
  elementTransform,
  ellipsePath,
  fitBox,
  linePath,
  multiply,
  rectPath,
  scaledAbout,
  translation,
} from './geometry.ts';
import { paintFor } from './paint.ts';
import { layoutQr } from './qr.ts';
import { planSvgDrawing, readSvg } from './svg/document.ts';
import { layoutText } from './text/layout-text.ts';
import type {
  DrawOp,
  FillStyle,
  GroupEffects,
  GroupOp,
  ImageOp,
  LayoutEnv,
  Paint,
  StrokeStyle,
} from './types.ts';

export { LayoutFailure } from './failure.ts';

/** A failure inside a group, naming the innermost element it came from. */
export class NestedElementFailure extends Error {
  constructor(
    readonly elementId: string,
    readonly failure: unknown,
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.name = 'NestedElementFailure';
  }
}

/** Key under which the host registers the rasterised form of an inline SVG element. */
export const svgElementImageKey = (elementId: string): string => `svg-element:${elementId}`;

function css(color: string | null): string | null {
  if (color === null) return null;
  const parsed = parseColor(color);
  return parsed && parsed.a > 0 ? toCssRgba(parsed) : null;
}

function fillOf(paint: Paint | null): FillStyle | undefined {
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
    fillOf(paintFor(el.fill, el)),
    strokeOf(el.stroke, el.strokeWidth),
  );
}

function ellipseOps(el: EllipseElement): DrawOp[] {
  const d = ellipsePath(el.x + el.width / 2, el.y + el.height / 2, el.width / 2, el.height / 2);
  return shape(d, fillOf(paintFor(el.fill, el)), strokeOf(el.stroke, el.strokeWidth));
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

/** The part of an image to show, in fractions of its size (see ImageElement.crop). */
export interface ImageCrop {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * An image op for `key` fitted into `box`; clipped when it overflows or the corners are rounded.
 * A crop is applied before the fit: the cropped part is what is fitted, and the op draws the whole
 * source placed so that part lands where the fit puts it, clipped to it. (Drawing the whole source
 * under a clip, rather than a source rectangle, keeps PDF output passing a JPEG through unchanged
 * and needs no knowledge of the drawable's pixel size at drawing time.)
 */
export function imageOps(
  key: string,
  box: Box,
  fit: 'cover' | 'contain' | 'fill',
  radius: number,
  env: LayoutEnv,
  crop?: ImageCrop,
  filter?: string,
): DrawOp[] {
  const info = env.images.get(key);
  if (!info) throw new LayoutFailure('image was not loaded');
  const part = crop
    ? { width: info.width * crop.width, height: info.height * crop.height }
    : { width: info.width, height: info.height };
  const dest = fitBox(box, part.width, part.height, fit);
  const sx = part.width > 0 ? dest.width / part.width : 1;
  const sy = part.height > 0 ? dest.height / part.height : 1;
  const whole = crop
    ? {
        x: dest.x - info.width * crop.x * sx,
        y: dest.y - info.height * crop.y * sy,
        width: info.width * sx,
        height: info.height * sy,
      }
    : dest;
  const op: ImageOp = {
    op: 'image',
    key,
    ...whole,
    deviceWidth: Math.max(1, Math.round(whole.width * env.deviceScale)),
    deviceHeight: Math.max(1, Math.round(whole.height * env.deviceScale)),
    ...(filter ? { filter } : {}),
  };
  const boxClip = rectPath(box.x, box.y, box.width, box.height, radius);
  if (!crop) {
    const overflows = dest.width > box.width + 1e-6 || dest.height > box.height + 1e-6;
    if (overflows || radius > 0) op.clip = boxClip;
    return [op];
  }
  // The cropped part covers the box (cover, fill): the box clips it. It sits inside the box
  // (contain): it clips itself, and a rounded box clips that again.
  const coversBox =
    dest.x <= box.x + 1e-6 &&
    dest.y <= box.y + 1e-6 &&
    dest.x + dest.width >= box.x + box.width - 1e-6 &&
    dest.y + dest.height >= box.y + box.height - 1e-6;
  if (coversBox) return [{ ...op, clip: boxClip }];
  const cropped: ImageOp = { ...op, clip: rectPath(dest.x, dest.y, dest.width, dest.height) };
  if (radius <= 0) return [cropped];
  return [{ op: 'group', opacity: 1, clip: boxClip, children: [cropped] }];
}

/** Image filters as a CSS filter string, in the schema's order; blur in device pixels. */
function imageFilter(el: ImageElement, deviceScale: number): string | undefined {
  const f = el.filters;
  if (!f) return undefined;
  const parts: string[] = [];
  if (f.brightness !== undefined && f.brightness !== 1) parts.push(`brightness(${f.brightness})`);
  if (f.contrast !== undefined && f.contrast !== 1) parts.push(`contrast(${f.contrast})`);
  if (f.saturation !== undefined && f.saturation !== 1) parts.push(`saturate(${f.saturation})`);
  if (f.grayscale) parts.push(`grayscale(${f.grayscale})`);
  if (f.sepia) parts.push(`sepia(${f.sepia})`);
  if (f.blur) parts.push(`blur(${Math.round(f.blur * deviceScale * 1000) / 1000}px)`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function imageElementOps(el: ImageElement, env: LayoutEnv): DrawOp[] {
  const ops = imageOps(el.src, el, el.fit, el.cornerRadius, env, el.crop, imageFilter(el, env.deviceScale));
  const border = strokeOf(el.stroke ?? null, el.strokeWidth ?? 0);
  if (border)
    ops.push({ op: 'path', d: rectPath(el.x, el.y, el.width, el.height, el.cornerRadius), stroke: border });
  return ops;
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
    case 'text': {
      const text = layoutText(el, env);
      env.textLayouts?.set(el.id, text);
      return text.ops;
    }
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
    case 'barcode':
      return layoutBarcode(el, env);
    case 'video':
      // design/timeline.ts has set `trimStartMs` to the clip time this frame shows.
      return imageOps(videoFrameKey(el.src, el.trimStartMs ?? 0), el, el.fit, el.cornerRadius, env);
    case 'group':
      return groupChildren(el, env);
  }
}

/** A group's children, laid out in the group's own coordinates (its box's top-left is 0, 0). */
function groupChildren(group: GroupElement, env: LayoutEnv): DrawOp[] {
  const ops: DrawOp[] = [];
  for (const child of group.elements) {
    try {
      const op = layoutElement(child, env);
      if (op) ops.push(op);
    } catch (error) {
      throw error instanceof NestedElementFailure ? error : new NestedElementFailure(child.id, error);
    }
  }
  return ops;
}

/** Shadow and blur as draw-op effects, or undefined when neither would show. */
function effectsOf(el: Element): GroupEffects | undefined {
  const effects: GroupEffects = {};
  const shadowColor = el.shadow ? css(el.shadow.color) : null;
  if (el.shadow && shadowColor) {
    // Offsets stay in page axes whatever the element's rotation or flips (as a light from one
    // direction would cast them, and as Canvas and CSS drop shadows behave).
    const { blur, offsetX, offsetY } = el.shadow;
    effects.shadow = { color: shadowColor, blur, offsetX, offsetY };
  }
  if (el.blur && el.blur > 0) effects.blur = el.blur;
  return effects.shadow || effects.blur ? effects : undefined;
}

/** The element's group, or null when it draws nothing. */
export function layoutElement(el: Element, env: LayoutEnv): DrawOp | null {
  if (!el.visible || el.opacity <= 0) return null;
  const sized = el.width > 0 && el.height > 0;
  if (el.type === 'group' ? !sized && el.clip : el.type !== 'line' && !sized) return null;
  const children = contentOps(el, env);
  if (children.length === 0) return null;
  const cx = el.x + el.width / 2;
  const cy = el.y + el.height / 2;
  const turned = elementTransform(el.rotation, el.flipX ?? false, el.flipY ?? false, cx, cy);
  const scale = env.scales?.get(el.id);
  const scaled = scale === undefined || scale === 1 ? undefined : scaledAbout(scale, cx, cy);
  const own = turned && scaled ? multiply(turned, scaled) : (turned ?? scaled);
  const placed = el.type === 'group' ? translation(el.x, el.y) : undefined;
  const transform = own && placed ? multiply(own, placed) : (own ?? placed);
  const effects = effectsOf(el);
  const op: GroupOp = {
    op: 'group',
    elementId: el.id,
    opacity: el.opacity,
    ...(transform ? { transform } : {}),
    ...(el.type === 'group' && el.clip ? { clip: rectPath(0, 0, el.width, el.height) } : {}),
    ...(effects ? { effects } : {}),
    children,
  };
  return op;
}
