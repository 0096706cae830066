/**
 * An SVG document as layout sees it: the parsed root, its intrinsic size, the viewBox →
 * element-box mapping (preserveAspectRatio), the safety rule for markup handed to a rasteriser
 * (no external references: only `#fragment` and `data:` URLs), and the plan for drawing it.
 */
import { type Box, multiply, rectPath, scaling, translation } from '../geometry.ts';
import type { DrawOp, Matrix } from '../types.ts';
import { convertSvgContent } from './convert.ts';
import { parseStyleAttribute } from './values.ts';
import { parseXml, SvgError, type XmlElement } from './xml.ts';

export interface SvgDocument {
  root: XmlElement;
  viewBox: Box | null;
  width: number | null;
  height: number | null;
  align: string;
  slice: boolean;
}

function positiveNumber(text: string | undefined): number | null {
  if (text === undefined || text.trim().endsWith('%')) return null;
  const value = Number.parseFloat(text);
  return Number.isFinite(value) && value > 0 ? value : null;
}

function readViewBox(text: string | undefined): Box | null {
  if (!text) return null;
  const parts = text
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const [x = 0, y = 0, width = 0, height = 0] = parts;
  if (parts.length !== 4 || parts.some((v) => !Number.isFinite(v)) || width <= 0 || height <= 0) return null;
  return { x, y, width, height };
}

const EXTERNAL_URL = /url\(\s*['"]?(?!#|data:)/i;

/** Refuses references that would make a rasteriser read files or the network. */
export function assertSvgSafe(node: XmlElement): void {
  for (const [name, value] of Object.entries(node.attrs)) {
    const local = name.toLowerCase();
    if ((local === 'href' || local.endsWith(':href') || local === 'src') && !/^\s*(#|data:)/i.test(value)) {
      throw new SvgError(`external reference in <${node.name} ${name}> is not allowed`);
    }
    if (EXTERNAL_URL.test(value)) throw new SvgError(`external url() in <${node.name}> is not allowed`);
  }
  if (node.name === 'style' && (/@import/i.test(node.text) || EXTERNAL_URL.test(node.text))) {
    throw new SvgError('external reference in <style> is not allowed');
  }
  for (const child of node.children) assertSvgSafe(child);
}

export function readSvg(markup: string): SvgDocument {
  const root = parseXml(markup);
  if (root.name !== 'svg') throw new SvgError(`root element is <${root.name}>, not <svg>`);
  assertSvgSafe(root);
  const [align = 'xMidYMid', meetOrSlice = 'meet'] = (root.attrs.preserveAspectRatio ?? '')
    .trim()
    .split(/\s+/);
  return {
    root,
    viewBox: readViewBox(root.attrs.viewBox),
    width: positiveNumber(root.attrs.width),
    height: positiveNumber(root.attrs.height),
    align: align || 'xMidYMid',
    slice: meetOrSlice === 'slice',
  };
}

/** Size when drawn as an image without a box: width/height, else the viewBox, else 300×150. */
export function svgIntrinsicSize(doc: SvgDocument): { width: number; height: number } {
  const ratio = doc.viewBox ? doc.viewBox.width / doc.viewBox.height : null;
  if (doc.width && doc.height) return { width: doc.width, height: doc.height };
  if (doc.width && ratio) return { width: doc.width, height: doc.width / ratio };
  if (doc.height && ratio) return { width: doc.height * ratio, height: doc.height };
  if (doc.viewBox) return { width: doc.viewBox.width, height: doc.viewBox.height };
  return { width: doc.width ?? 300, height: doc.height ?? 150 };
}

/** Where the viewBox lands in the box (SVG preserveAspectRatio). */
export function placeViewBox(doc: SvgDocument, box: Box): Box {
  const view = doc.viewBox ?? { x: 0, y: 0, ...svgIntrinsicSize(doc) };
  if (doc.align === 'none') return box;
  const sx = box.width / view.width;
  const sy = box.height / view.height;
  const s = doc.slice ? Math.max(sx, sy) : Math.min(sx, sy);
  const width = view.width * s;
  const height = view.height * s;
  const fx = doc.align.startsWith('xMin') ? 0 : doc.align.startsWith('xMax') ? 1 : 0.5;
  const fy = doc.align.endsWith('YMin') ? 0 : doc.align.endsWith('YMax') ? 1 : 0.5;
  return { x: box.x + (box.width - width) * fx, y: box.y + (box.height - height) * fy, width, height };
}

export type SvgDrawPlan =
  | { kind: 'vector'; op: DrawOp }
  | { kind: 'raster'; reason: string; placement: Box; clip: boolean };

/** Vector ops for the SVG placed in the box, or where to draw it rasterised. */
export function planSvgDrawing(doc: SvgDocument, box: Box): SvgDrawPlan {
  const placement = placeViewBox(doc, box);
  const plan = convertSvgContent(doc.root);
  const overflows = placement.width > box.width + 1e-6 || placement.height > box.height + 1e-6;
  if (plan.kind === 'raster') return { kind: 'raster', reason: plan.reason, placement, clip: overflows };
  const view = doc.viewBox ?? { x: 0, y: 0, width: box.width, height: box.height };
  const sx = placement.width / view.width;
  const sy = placement.height / view.height;
  const transform: Matrix = multiply(
    translation(placement.x - view.x * sx, placement.y - view.y * sy),
    scaling(sx, sy),
  );
  // The viewport (the element box) clips, expressed in the SVG's user space.
  const clip = rectPath(
    (box.x - transform[4]) / sx,
    (box.y - transform[5]) / sy,
    box.width / sx,
    box.height / sy,
  );
  const style = { ...doc.root.attrs, ...parseStyleAttribute(doc.root.attrs.style) };
  const parsed = Number.parseFloat(style.opacity ?? '1');
  const opacity = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 1;
  return { kind: 'vector', op: { op: 'group', transform, clip, opacity, children: plan.ops } };
}
