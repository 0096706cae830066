/**
 * How a raster page is cut into strips of rows that are encoded independently (JPEG with restart
 * markers, PNG with one deflate segment per strip) and put back together: an incremental render
 * re-encodes only the strips its changes touch, and a whole page encodes all strips in parallel.
 * Strips are a multiple of 16 rows, the JPEG MCU height at 4:2:0; the last strip takes the rest.
 */

/**
 * 64 rows (docs/performance.md, "Strips of 64 rows"): a changed headline re-encodes 192 rows instead
 * of 256, and a whole page costs the same as with 128 now that a strip's encoder costs little to
 * start; 32 rows made whole PNG pages slower and gained nothing more on the headline.
 */
export const STRIP_ROWS = 64;

export interface Strip {
  index: number;
  top: number;
  rows: number;
}

export function stripsOf(height: number, stripRows = STRIP_ROWS): Strip[] {
  const strips: Strip[] = [];
  for (let top = 0, index = 0; top < height; top += stripRows, index++)
    strips.push({ index, top, rows: Math.min(stripRows, height - top) });
  return strips;
}

/** Runs of consecutive strip indexes (sorted, unique), so each run is read back in one call. */
export function consecutiveRuns(indexes: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const index of [...new Set(indexes)].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && last.at(-1) === index - 1) last.push(index);
    else runs.push([index]);
  }
  return runs;
}
