/**
 * Inline SVG → draw operations. Paths, basic shapes, groups, transforms, fills, strokes, dashes,
 * opacity and linear/radial gradients become vector ops (so they stay vector in PDF); any other
 * feature (text, images, filters, masks, clip paths, patterns, markers, <use>, CSS <style>)
 * makes the plan 'raster'. Hostile or malformed markup throws SvgError from the parser.
 */
import type { Rgba } from '../../../design/index.ts';
import type { DrawOp, FillStyle, StrokeStyle } from '../types.ts';
import { resolvePaint } from './paint.ts';
import { shapeGeometry } from './shapes.ts';
import {
  parseFraction,
  parseLength,
  parseNumberList,
  parseStyleAttribute,
  parseSvgColor,
  parseTransform,
  SvgUnsupported,
} from './values.ts';
import type { XmlElement } from './xml.ts';

export type SvgPlan = { kind: 'vector'; ops: DrawOp[] } | { kind: 'raster'; reason: string };

/** Inherited presentation properties (SVG 1.1 §6.15), as raw strings until a shape needs them. */
interface Inherited {
  fill: string;
  fillOpacity: string;
  fillRule: string;
  stroke: string;
  strokeOpacity: string;
  strokeWidth: string;
  linecap: string;
  linejoin: string;
  miterlimit: string;
  dasharray: string;
  dashoffset: string;
  visibility: string;
  color: Rgba;
}

const ROOT_STYLE: Inherited = {
  fill: 'black',
  fillOpacity: '1',
  fillRule: 'nonzero',
  stroke: 'none',
  strokeOpacity: '1',
  strokeWidth: '1',
  linecap: 'butt',
  linejoin: 'miter',
  miterlimit: '4',
  dasharray: 'none',
  dashoffset: '0',
  visibility: 'visible',
  color: { r: 0, g: 0, b: 0, a: 1 },
};

const SKIPPED = new Set(['defs', 'title', 'desc', 'metadata', 'linearGradient', 'radialGradient']);
const SHAPES = new Set(['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon']);
const UNSUPPORTED_PROPS = [
  'filter',
  'mask',
  'clip-path',
  'marker',
  'marker-start',
  'marker-mid',
  'marker-end',
];

function collectDefs(node: XmlElement, into: Map<string, XmlElement>): Map<string, XmlElement> {
  const id = node.attrs.id;
  if (id !== undefined && !into.has(id)) into.set(id, node);
  for (const child of node.children) collectDefs(child, into);
  return into;
}

function props(node: XmlElement): Record<string, string> {
  return { ...node.attrs, ...parseStyleAttribute(node.attrs.style) };
}

function inherit(parent: Inherited, p: Record<string, string>): Inherited {
  const pick = (name: string, fallback: string): string => {
    const value = p[name];
    return value === undefined || value === 'inherit' ? fallback : value;
  };
  return {
    fill: pick('fill', parent.fill),
    fillOpacity: pick('fill-opacity', parent.fillOpacity),
    fillRule: pick('fill-rule', parent.fillRule),
    stroke: pick('stroke', parent.stroke),
    strokeOpacity: pick('stroke-opacity', parent.strokeOpacity),
    strokeWidth: pick('stroke-width', parent.strokeWidth),
    linecap: pick('stroke-linecap', parent.linecap),
    linejoin: pick('stroke-linejoin', parent.linejoin),
    miterlimit: pick('stroke-miterlimit', parent.miterlimit),
    dasharray: pick('stroke-dasharray', parent.dasharray),
    dashoffset: pick('stroke-dashoffset', parent.dashoffset),
    visibility: pick('visibility', parent.visibility),
    color: p.color === undefined ? parent.color : parseSvgColor(p.color, parent.color),
  };
}

const clamp01 = (value: number): number => Math.min(1, Math.max(0, value));

function oneOf<T extends string>(value: string, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function shapeOp(node: XmlElement, style: Inherited, defs: ReadonlyMap<string, XmlElement>): DrawOp | null {
  const geometry = shapeGeometry(node);
  if (geometry.d === '' || style.visibility === 'hidden' || style.visibility === 'collapse') return null;
  const fillPaint =
    node.name === 'line'
      ? null
      : resolvePaint(style.fill, clamp01(parseFraction(style.fillOpacity, 1)), geometry, style.color, defs);
  const strokePaint = resolvePaint(
    style.stroke,
    clamp01(parseFraction(style.strokeOpacity, 1)),
    geometry,
    style.color,
    defs,
  );
  const width = parseLength(style.strokeWidth, 1);
  const op: DrawOp = { op: 'path', d: geometry.d };
  if (fillPaint) {
    const fill: FillStyle = { ...fillPaint, rule: style.fillRule === 'evenodd' ? 'evenodd' : 'nonzero' };
    op.fill = fill;
  }
  if (strokePaint && width > 0) {
    let dash = style.dasharray === 'none' ? [] : parseNumberList(style.dasharray);
    if (dash.some((v) => v < 0) || dash.every((v) => v === 0)) dash = [];
    if (dash.length % 2 === 1) dash = [...dash, ...dash];
    const stroke: StrokeStyle = {
      ...strokePaint,
      width,
      dash,
      dashOffset: parseLength(style.dashoffset, 0),
      cap: oneOf(style.linecap, ['butt', 'round', 'square'] as const, 'butt'),
      join: oneOf(style.linejoin, ['miter', 'round', 'bevel'] as const, 'miter'),
      miterLimit: Math.max(1, Number(style.miterlimit) || 4),
    };
    op.stroke = stroke;
  }
  return op.fill || op.stroke ? op : null;
}

function convertNode(
  node: XmlElement,
  parent: Inherited,
  defs: ReadonlyMap<string, XmlElement>,
): DrawOp | null {
  if (SKIPPED.has(node.name)) return null;
  const p = props(node);
  if (p.display === 'none') return null;
  for (const name of UNSUPPORTED_PROPS) {
    const value = p[name];
    if (value !== undefined && value !== 'none') throw new SvgUnsupported(name);
  }
  const style = inherit(parent, p);
  let inner: DrawOp | null;
  if (node.name === 'g' || node.name === 'a') {
    const children = node.children
      .map((child) => convertNode(child, style, defs))
      .filter((op) => op !== null);
    inner = children.length > 0 ? { op: 'group', opacity: 1, children } : null;
  } else if (SHAPES.has(node.name)) inner = shapeOp(node, style, defs);
  else throw new SvgUnsupported(`<${node.name}>`);
  if (!inner) return null;
  const transform = parseTransform(p.transform);
  const opacity = clamp01(parseFraction(p.opacity, 1));
  if (!transform && opacity === 1) return inner;
  if (opacity === 0) return null;
  return { op: 'group', opacity, ...(transform ? { transform } : {}), children: [inner] };
}

/** The root's children as ops in the root's user space (viewBox coordinates). */
export function convertSvgContent(root: XmlElement): SvgPlan {
  try {
    const defs = collectDefs(root, new Map());
    const style = inherit(ROOT_STYLE, props(root));
    const ops = root.children.map((child) => convertNode(child, style, defs)).filter((op) => op !== null);
    return { kind: 'vector', ops };
  } catch (error) {
    if (error instanceof SvgUnsupported) return { kind: 'raster', reason: error.reason };
    throw error;
  }
}
