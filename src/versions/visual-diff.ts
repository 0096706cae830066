/**
 * The visual diff of two template versions: both renders are compared pixel by pixel and the
 * result is the newer picture faded to a light grey, so the page stays recognisable, with every
 * changed pixel painted magenta and a magenta box drawn around each changed region. The regions
 * are returned too, so a caller can list or zoom to them without reading the image.
 *
 * A pixel changes only beyond a small tolerance (TOLERANCE below), so that the level or two by
 * which the same picture can come back from lossy encoding and decoding is not reported as an edit.
 *
 * A page resized between versions still diffs: both pictures are anchored at the top-left corner
 * and compared over their union, because design coordinates start there (an element at x/y keeps
 * its place when the page grows or shrinks at its right or bottom), so what stayed put still
 * matches and the added or removed strip shows as changed.
 *
 * Work and memory are linear in pixels, and inputs are capped at 16 megapixels: callers render
 * at a reduced scale, the cap is a guard against a picture that would hold hundreds of MB.
 */
import sharp from 'sharp';

export interface VisualDiff {
  png: Buffer;
  width: number;
  height: number;
  changedPixels: number;
  totalPixels: number;
  /** device-pixel boxes [x, y, width, height] around changed regions, at most 32, merged when close */
  regions: Array<[number, number, number, number]>;
}

/**
 * Largest change of a channel (0-255) that still counts as the same pixel: 8, about 3 %. JPEG
 * decoders (libjpeg-turbo builds, their SIMD and IDCT paths) and a rasteriser's anti-aliasing
 * can return the same design a few levels apart, invisible and not an edit; a real change (a
 * glyph, a colour, a moved edge) is tens of levels where it lands. It does not absorb
 * re-encoding: a rendered JPEG re-encoded at the same quality 90 moves text edges by up to 27
 * levels (measured), so both versions should come from the engine in the same format and scale.
 */
const TOLERANCE = 8;
/** 4096 × 4096 (16 megapixels): the largest picture compared, and the largest union of two. */
const MAX_PIXELS = 4096 * 4096;
const LIMIT = '16 megapixels (4096×4096)';
/** Side of the grid cells changed pixels are grouped by: coarse enough to stay cheap, fine enough for tight boxes. */
const CELL = 16;
const MAX_REGIONS = 32;
const MAGENTA = [0xff, 0x00, 0xff] as const;
/** The outline sits this far outside a region, so it does not cover the changed pixels' edge... */
const OUTLINE_GAP = 2;
/** ...and is this thick. */
const OUTLINE_WIDTH = 2;

interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

export async function visualDiff(before: Uint8Array, after: Uint8Array): Promise<VisualDiff> {
  const [a, b] = await Promise.all([decode(before, 'before'), decode(after, 'after')]);
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  // Two pictures each under the cap may still span a much larger union (one wide, one tall).
  if (width * height > MAX_PIXELS)
    throw new Error(
      `Visual diff: the two pictures together span ${width}×${height} pixels, over the limit of ${LIMIT}; render them at a smaller scale.`,
    );
  const out = Buffer.alloc(width * height * 3);
  const cells = new CellGrid(width, height);
  const pa = a.data;
  const pb = b.data;
  // Premultiplied channels (0-255²) are compared: two fully transparent pixels are the same
  // whatever colour they nominally carry, as they look the same.
  const threshold = TOLERANCE * 255;
  let changedPixels = 0;
  const changed = (x: number, y: number, o: number) => {
    out[o] = MAGENTA[0];
    out[o + 1] = MAGENTA[1];
    out[o + 2] = MAGENTA[2];
    changedPixels++;
    cells.mark(x, y);
  };
  // The hot loop is written out (no call per unchanged pixel): at 16 megapixels a closure or a
  // helper per pixel was measured to cost seconds.
  for (let y = 0; y < height; y++) {
    // Columns both pictures have on this row; the rest of the row exists in one only.
    const shared = y < a.height && y < b.height ? Math.min(a.width, b.width) : 0;
    let ia = y * a.width * 4;
    let ib = y * b.width * 4;
    let o = y * width * 3;
    for (let x = 0; x < shared; x++, ia += 4, ib += 4, o += 3) {
      const alphaA = pa[ia + 3] as number;
      const alphaB = pb[ib + 3] as number;
      const r = pb[ib] as number;
      const g = pb[ib + 1] as number;
      const bl = pb[ib + 2] as number;
      const dA = alphaA - alphaB;
      const dR = (pa[ia] as number) * alphaA - r * alphaB;
      const dG = (pa[ia + 1] as number) * alphaA - g * alphaB;
      const dB = (pa[ia + 2] as number) * alphaA - bl * alphaB;
      if (
        dA > TOLERANCE ||
        dA < -TOLERANCE ||
        dR > threshold ||
        dR < -threshold ||
        dG > threshold ||
        dG < -threshold ||
        dB > threshold ||
        dB < -threshold
      ) {
        changed(x, y, o);
        continue;
      }
      // The after picture over white, as a grey of a quarter of its darkness: context that no
      // magenta is lost in. Rec. 709 luma weights, scaled to 256.
      let luma = (54 * r + 183 * g + 19 * bl) >> 8;
      if (alphaB < 255) luma = ((luma * alphaB + 255 * (255 - alphaB)) / 255) | 0;
      const grey = 255 - ((255 - luma) >> 2);
      out[o] = grey;
      out[o + 1] = grey;
      out[o + 2] = grey;
    }
    for (let x = shared; x < width; x++, o += 3) changed(x, y, o);
  }
  const regions = cells.regions();
  for (const region of regions) outline(out, width, height, region);
  const png = await sharp(out, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return { png, width, height, changedPixels, totalPixels: width * height, regions };
}

async function decode(bytes: Uint8Array, which: 'before' | 'after'): Promise<Raster> {
  // The header first: an oversized picture is refused before anything is decoded.
  const meta = await sharp(bytes)
    .metadata()
    .catch((error: unknown) => {
      throw new Error(`Visual diff: the ${which} picture cannot be read: ${(error as Error).message}`);
    });
  const { width, height } = meta;
  if (!width || !height) throw new Error(`Visual diff: the ${which} picture has no size.`);
  if (width * height > MAX_PIXELS)
    throw new Error(
      `Visual diff: the ${which} picture is ${width}×${height} pixels, over the limit of ${LIMIT}; render it at a smaller scale.`,
    );
  // sRGB and 8 bits whatever the input (greyscale, 16-bit PNG), so every pixel is 4 bytes of RGBA.
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PIXELS })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`Visual diff: the ${which} picture did not decode to RGBA.`);
  return { data, width: info.width, height: info.height };
}

/**
 * Changed pixels grouped by cells of CELL × CELL pixels, each holding the tight box of its own
 * changed pixels, so boxes follow the pixels rather than the grid.
 */
class CellGrid {
  private columns: number;
  private rows: number;
  /** Per cell: minX, minY, maxX, maxY of its changed pixels; minX -1 when it has none. */
  private boxes: Int32Array;

  constructor(width: number, height: number) {
    this.columns = Math.ceil(width / CELL);
    this.rows = Math.ceil(height / CELL);
    this.boxes = new Int32Array(this.columns * this.rows * 4).fill(-1);
  }

  mark(x: number, y: number): void {
    const k = (((y / CELL) | 0) * this.columns + ((x / CELL) | 0)) * 4;
    const boxes = this.boxes;
    if ((boxes[k] as number) < 0) {
      boxes[k] = x;
      boxes[k + 1] = y;
      boxes[k + 2] = x;
      boxes[k + 3] = y;
      return;
    }
    // Rows are scanned top to bottom: minY is the first row marked, maxY the current one.
    if (x < (boxes[k] as number)) boxes[k] = x;
    if (x > (boxes[k + 2] as number)) boxes[k + 2] = x;
    boxes[k + 3] = y;
  }

  /**
   * Touching changed cells (diagonals too) form one region. While there are more than
   * MAX_REGIONS, the grid is coarsened 2 × 2 and grouped again, so the nearest regions merge
   * first; every level has a quarter of the cells, so the whole is linear in the first grid's size.
   */
  regions(): Array<[number, number, number, number]> {
    let columns = this.columns;
    let rows = this.rows;
    let boxes = this.boxes;
    for (;;) {
      const found = components(boxes, columns, rows);
      if (found.length <= MAX_REGIONS) {
        return found
          .map(([x0, y0, x1, y1]): [number, number, number, number] => [x0, y0, x1 - x0 + 1, y1 - y0 + 1])
          .sort((p, q) => p[1] - q[1] || p[0] - q[0]);
      }
      const coarse = coarsen(boxes, columns, rows);
      columns = coarse.columns;
      rows = coarse.rows;
      boxes = coarse.boxes;
    }
  }
}

/** Flood fill over the changed cells (an explicit stack: no recursion depth to run out of). */
function components(
  boxes: Int32Array,
  columns: number,
  rows: number,
): Array<[number, number, number, number]> {
  const count = columns * rows;
  const seen = new Uint8Array(count);
  const stack = new Int32Array(count);
  const found: Array<[number, number, number, number]> = [];
  for (let start = 0; start < count; start++) {
    if (seen[start] || (boxes[start * 4] as number) < 0) continue;
    const box: [number, number, number, number] = [Infinity, Infinity, -1, -1];
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const cell = stack[--top] as number;
      const k = cell * 4;
      box[0] = Math.min(box[0], boxes[k] as number);
      box[1] = Math.min(box[1], boxes[k + 1] as number);
      box[2] = Math.max(box[2], boxes[k + 2] as number);
      box[3] = Math.max(box[3], boxes[k + 3] as number);
      const cx = cell % columns;
      const cy = (cell / columns) | 0;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = cy + dy;
        if (ny < 0 || ny >= rows) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = cx + dx;
          if (nx < 0 || nx >= columns) continue;
          const next = ny * columns + nx;
          if (seen[next] || (boxes[next * 4] as number) < 0) continue;
          seen[next] = 1;
          stack[top++] = next;
        }
      }
    }
    found.push(box);
  }
  return found;
}

/** The grid at twice the cell size: each new cell's box is the union of its four cells' boxes. */
function coarsen(
  boxes: Int32Array,
  columns: number,
  rows: number,
): { boxes: Int32Array; columns: number; rows: number } {
  const coarseColumns = Math.ceil(columns / 2);
  const coarseRows = Math.ceil(rows / 2);
  const coarse = new Int32Array(coarseColumns * coarseRows * 4).fill(-1);
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < columns; cx++) {
      const k = (cy * columns + cx) * 4;
      if ((boxes[k] as number) < 0) continue;
      const c = ((cy >> 1) * coarseColumns + (cx >> 1)) * 4;
      if ((coarse[c] as number) < 0) {
        coarse.set(boxes.subarray(k, k + 4), c);
        continue;
      }
      coarse[c] = Math.min(coarse[c] as number, boxes[k] as number);
      coarse[c + 1] = Math.min(coarse[c + 1] as number, boxes[k + 1] as number);
      coarse[c + 2] = Math.max(coarse[c + 2] as number, boxes[k + 2] as number);
      coarse[c + 3] = Math.max(coarse[c + 3] as number, boxes[k + 3] as number);
    }
  }
  return { boxes: coarse, columns: coarseColumns, rows: coarseRows };
}

/** A ring OUTLINE_WIDTH thick, OUTLINE_GAP outside the region, clipped to the picture. */
function outline(out: Buffer, width: number, height: number, [x, y, w, h]: [number, number, number, number]) {
  const reach = OUTLINE_GAP + OUTLINE_WIDTH;
  const left = x - reach;
  const top = y - reach;
  const right = x + w - 1 + reach;
  const bottom = y + h - 1 + reach;
  const fill = (x0: number, y0: number, x1: number, y1: number) => {
    for (let py = Math.max(0, y0); py <= Math.min(height - 1, y1); py++) {
      for (let px = Math.max(0, x0); px <= Math.min(width - 1, x1); px++) {
        const o = (py * width + px) * 3;
        out[o] = MAGENTA[0];
        out[o + 1] = MAGENTA[1];
        out[o + 2] = MAGENTA[2];
      }
    }
  };
  fill(left, top, right, top + OUTLINE_WIDTH - 1);
  fill(left, bottom - OUTLINE_WIDTH + 1, right, bottom);
  fill(left, top, left + OUTLINE_WIDTH - 1, bottom);
  fill(right - OUTLINE_WIDTH + 1, top, right, bottom);
}
