/**
 * Page layout, the pure entry point: page + environment → background and element groups in
 * array order (later elements draw on top). Returns a result: a failure names the element and
 * why, and the host turns it into a RenderError.
 */
import { isImageBackground, type Page } from '../../design/index.ts';
import { imageOps, LayoutFailure, layoutElement, NestedElementFailure } from './elements.ts';
import { rectPath } from './geometry.ts';
import { paintFor } from './paint.ts';
import { SvgError } from './svg/xml.ts';
import type { DrawOp, LayoutEnv, PageLayout } from './types.ts';

export type LayoutResult =
  | { ok: true; layout: PageLayout }
  | {
      ok: false;
      elementId?: string;
      reason: string /** A LayoutFailure's catalogue code (BARCODE_INVALID). */;
      code?: string;
    };

function backgroundOps(page: Page, env: LayoutEnv): DrawOp[] {
  const box = { x: 0, y: 0, width: page.width, height: page.height };
  if (isImageBackground(page.background))
    return imageOps(page.background.src, box, page.background.fit, 0, env);
  // A colour or a gradient over the whole page.
  const paint = paintFor(page.background, box);
  if (!paint) return [];
  return [
    { op: 'path', d: rectPath(0, 0, page.width, page.height), fill: { paint, alpha: 1, rule: 'nonzero' } },
  ];
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
    } catch (thrown) {
      // A failure inside a group names the element it came from, not the outermost group.
      const nested = thrown instanceof NestedElementFailure ? thrown : null;
      const error = nested ? nested.failure : thrown;
      const reason = reasonOf(error) ?? (error instanceof Error ? error.message : String(error));
      const code = error instanceof LayoutFailure ? error.code : undefined;
      return { ok: false, elementId: nested?.elementId ?? element.id, reason, ...(code ? { code } : {}) };
    }
  }
  return { ok: true, layout: { width: page.width, height: page.height, ops } };
}
