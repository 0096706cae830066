/**
 * Page layout, the pure entry point: page + environment → background and element groups in
 * array order (later elements draw on top). Returns a result: a failure names the element and
 * why, and the host turns it into a RenderError.
 */
import type { Page } from '../../design/index.ts';
import { parseColor, toCssRgba } from '../../design/index.ts';
import { imageOps, LayoutFailure, layoutElement } from './elements.ts';
import { rectPath } from './geometry.ts';
import { SvgError } from './svg/xml.ts';
import type { DrawOp, LayoutEnv, PageLayout } from './types.ts';

export type LayoutResult =
  | { ok: true; layout: PageLayout }
  | { ok: false; elementId?: string; reason: string };

function backgroundOps(page: Page, env: LayoutEnv): DrawOp[] {
  const box = { x: 0, y: 0, width: page.width, height: page.height };
  if (typeof page.background === 'string') {
    const color = parseColor(page.background);
    if (!color || color.a === 0) return [];
    return [
      {
        op: 'path',
        d: rectPath(0, 0, page.width, page.height),
        fill: { paint: toCssRgba(color), alpha: 1, rule: 'nonzero' },
      },
    ];
  }
  return imageOps(page.background.src, box, page.background.fit, 0, env);
}

function reasonOf(error: unknown): string | null {
  if (error instanceof LayoutFailure) return error.reason;
  if (error instanceof SvgError) return `invalid SVG: ${error.reason}`;
  return null;
}

export function layoutPage(page: Page, env: LayoutEnv): LayoutResult {
  const ops: DrawOp[] = [];
  try {
    ops.push(...backgroundOps(page, env));
  } catch (error) {
    const reason = reasonOf(error);
    if (reason === null) throw error;
    return { ok: false, reason: `page background: ${reason}` };
  }
  for (const element of page.elements) {
    try {
      const op = layoutElement(element, env);
      if (op) ops.push(op);
    } catch (error) {
      const reason = reasonOf(error) ?? (error instanceof Error ? error.message : String(error));
      return { ok: false, elementId: element.id, reason };
    }
  }
  return { ok: true, layout: { width: page.width, height: page.height, ops } };
}
