/**
 * Text contrast against what is really drawn beneath it: the page is drawn by the render's own
 * drawing code, small, without the text element's glyphs and without anything drawn after it, and
 * the pixels under its lines are compared with its colour (WCAG 2, contrast.ts). A transparent
 * page counts as white, as a viewer shows it. The text's outline, when it has one, counts: a dark
 * outline keeps light text readable on a light photo.
 */
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { parseColor, type TextElement } from '../../design/index.ts';
import { drawPreparedPage } from '../backends/draw-context.ts';
import type { PreparedPage } from '../backends/prepare.ts';
import type { TextLayout, TextMeasurer } from '../layout/index.ts';
import type { Paint } from '../layout/types.ts';
import { contrastRatio, over, type Rgb, requiredRatio, typicalRatio } from './contrast.ts';
import { type DrawnElement, mappedBounds, opsBeneathText, type Rect } from './drawn.ts';
import { finding, type PreflightFinding } from './findings.ts';

/** Longest side of the picture the background is read from, in pixels. */
export const CONTRAST_PICTURE = 512;
/** Pixels compared per element at most (evenly spread). */
const SAMPLES = 4096;
const WHITE: Rgb = { r: 255, g: 255, b: 255 };

export function contrastScale(page: { width: number; height: number }): number {
  return Math.min(1, CONTRAST_PICTURE / Math.max(page.width, page.height, 1));
}

/** A run's colours: a plain colour, or a gradient's stops (each must read). */
function colorsOf(paint: Paint): { rgb: Rgb; alpha: number }[] {
  const texts = typeof paint === 'string' ? [paint] : paint.stops.map((stop) => stop.color);
  return texts.flatMap((text) => {
    const color = parseColor(text);
    return color ? [{ rgb: { r: color.r, g: color.g, b: color.b }, alpha: color.a }] : [];
  });
}

/** The page box covered by the element's lines (ascent to descent, start to end of each run). */
function inkBounds(layout: TextLayout, drawn: DrawnElement, measurer: TextMeasurer): Rect | null {
  let box: Rect | null = null;
  for (const run of layout.runs) {
    const size = Number(/([\d.]+)px/.exec(run.font)?.[1] ?? 0);
    const width = measurer.width(run.font, run.text, run.letterSpacing);
    const local = { x: run.x, y: run.y - size * 0.8, width, height: size };
    const mapped = mappedBounds(drawn.matrix, local);
    if (!box) box = mapped;
    else {
      const x = Math.min(box.x, mapped.x);
      const y = Math.min(box.y, mapped.y);
      box = {
        x,
        y,
        width: Math.max(box.x + box.width, mapped.x + mapped.width) - x,
        height: Math.max(box.y + box.height, mapped.y + mapped.height) - y,
      };
    }
  }
  return box;
}

/** Background pixels under `box` (page units), composited on white. */
function backgroundPixels(canvas: Canvas, box: Rect, scale: number): Rgb[] {
  const x0 = Math.max(0, Math.floor(box.x * scale));
  const y0 = Math.max(0, Math.floor(box.y * scale));
  const x1 = Math.min(canvas.width, Math.ceil((box.x + box.width) * scale));
  const y1 = Math.min(canvas.height, Math.ceil((box.y + box.height) * scale));
  if (x1 <= x0 || y1 <= y0) return [];
  const { data } = canvas.getContext('2d').getImageData(x0, y0, x1 - x0, y1 - y0);
  const count = (x1 - x0) * (y1 - y0);
  const step = Math.max(1, Math.floor(count / SAMPLES));
  const pixels: Rgb[] = [];
  for (let i = 0; i < count; i += step) {
    const at = i * 4;
    const alpha = (data[at + 3] as number) / 255;
    pixels.push(
      over({ r: data[at] as number, g: data[at + 1] as number, b: data[at + 2] as number }, alpha, WHITE),
    );
  }
  return pixels;
}

export interface ContrastInput {
  pageId: string;
  el: TextElement;
  layout: TextLayout;
  drawn: DrawnElement;
  prepared: PreparedPage;
  canvas: Canvas;
  scale: number;
  measurer: TextMeasurer;
}

export function contrastFindings(input: ContrastInput): PreflightFinding[] {
  const { el, layout, drawn, prepared, canvas, scale } = input;
  const box = inkBounds(layout, drawn, input.measurer);
  const first = layout.runs[0];
  if (!box || !first) return [];
  const beneath = opsBeneathText(prepared.layout.ops, el.id).ops;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.scale(scale, scale);
  drawPreparedPage(ctx, { ...prepared, layout: { ...prepared.layout, ops: beneath } }, input.pageId, {
    width: canvas.width,
    height: canvas.height,
    layerScale: 1,
  });
  const pixels = backgroundPixels(canvas, box, scale);
  if (pixels.length === 0) return [];
  const outline = el.stroke && el.stroke.width > 0 ? parseColor(el.stroke.color) : null;
  let worst = Number.POSITIVE_INFINITY;
  // Each colour once: a long text is many runs of few colours.
  const colors = new Map<string, { rgb: Rgb; alpha: number }>();
  for (const run of layout.runs)
    for (const color of colorsOf(run.color)) colors.set(JSON.stringify(color), color);
  for (const { rgb, alpha } of colors.values()) {
    const a = alpha * drawn.opacity;
    const ratios = new Float64Array(pixels.length);
    pixels.forEach((pixel, index) => {
      let ratio = contrastRatio(over(rgb, a, pixel), pixel);
      if (outline && outline.a > 0) {
        const edge = over(outline, outline.a * drawn.opacity, pixel);
        ratio = Math.max(ratio, contrastRatio(edge, pixel));
      }
      ratios[index] = ratio;
    });
    worst = Math.min(worst, typicalRatio(ratios));
  }
  const required = requiredRatio(layout.fontSize, el.fontWeight);
  if (!(worst < required)) return [];
  const shown = Math.floor(worst * 100) / 100;
  return [
    finding(
      'low-contrast',
      { pageId: input.pageId, elementId: el.id },
      `The text's contrast with what is behind it is ${shown}:1; WCAG AA asks ${required}:1 for text of this size.`,
      { ratio: shown, required, fontSize: layout.fontSize },
    ),
  ];
}

export function contrastCanvas(page: { width: number; height: number }): { canvas: Canvas; scale: number } {
  const scale = contrastScale(page);
  const canvas = createCanvas(
    Math.max(1, Math.ceil(page.width * scale)),
    Math.max(1, Math.ceil(page.height * scale)),
  );
  return { canvas, scale };
}
