/** Zoom levels: stepping through familiar percentages, clamping, and fitting a page in a viewport. */

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 8;
const STEPS = [0.05, 0.1, 0.15, 0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2, 3, 4, 6, 8];

export const clampZoom = (zoom: number): number => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));

/** The next step above (direction 1) or below (-1) the current zoom. */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  if (direction > 0) return STEPS.find((step) => step > zoom + 1e-6) ?? MAX_ZOOM;
  return [...STEPS].reverse().find((step) => step < zoom - 1e-6) ?? MIN_ZOOM;
}

/** The zoom at which a page fits the viewport with a margin on every side, at most 400% for tiny pages. */
export function fitZoom(
  page: { width: number; height: number },
  viewport: { width: number; height: number },
  margin = 32,
): number {
  const w = Math.max(1, viewport.width - margin * 2);
  const h = Math.max(1, viewport.height - margin * 2);
  return clampZoom(Math.min(w / page.width, h / page.height, 4));
}
