/**
 * What preflight reports (docs/preflight.md): findings about one rendering of a template, each
 * naming the page and element, a severity and a readable message. Plain data, so a render process
 * answers it as JSON and the service, the studio and the MCP tool show it as they are.
 */

export type PreflightSeverity = 'error' | 'warning' | 'info';

export const PREFLIGHT_CODES = [
  /** Characters that no font of the element's family chain covers (drawn as boxes, or by chance). */
  'missing-glyphs',
  /** Text taller than its box, or a word wider than it, without auto-fit. */
  'text-overflow',
  /** Auto-fit stopped at minFontSize and the text still does not fit. */
  'text-below-min-size',
  /** maxLines dropped lines. */
  'text-truncated',
  /** A bitmap drawn larger than its pixels allow for the output format. */
  'low-resolution',
  /** Text colour against what is drawn beneath it, below WCAG 2 AA. */
  'low-contrast',
  /** An image that cannot be loaded (missing asset, refused URL, not an image). */
  'image-failed',
  /** An element partly or wholly beyond the page's edges. */
  'outside-page',
  /** Something else the render would fail on (an SVG it cannot read, a barcode value, a cost). */
  'render-failed',
  /** A modification the template refuses (a sample row's value); nothing else of the row is checked. */
  'invalid-modification',
] as const;

export type PreflightCode = (typeof PREFLIGHT_CODES)[number];

export interface PreflightFinding {
  code: PreflightCode;
  severity: PreflightSeverity;
  pageId: string | null;
  elementId: string | null;
  message: string;
  /** Measured values behind the message (sizes, ratios, characters), per code. */
  details?: Record<string, unknown>;
}

/** The checks of one rendering (a sample row, or the template with its modifications). */
export interface PreflightReport {
  findings: PreflightFinding[];
}

/** A finding's severity per code: errors are what a batch with `preflight` refuses a row for. */
export const SEVERITY: Record<PreflightCode, PreflightSeverity> = {
  'missing-glyphs': 'error',
  'text-overflow': 'error',
  'text-below-min-size': 'error',
  'image-failed': 'error',
  'invalid-modification': 'error',
  'render-failed': 'error',
  'text-truncated': 'warning',
  'low-resolution': 'warning',
  'low-contrast': 'warning',
  'outside-page': 'warning',
};

export function finding(
  code: PreflightCode,
  where: { pageId: string | null; elementId: string | null },
  message: string,
  details?: Record<string, unknown>,
  severity: PreflightSeverity = SEVERITY[code],
): PreflightFinding {
  return { code, severity, ...where, message, ...(details ? { details } : {}) };
}
