/**
 * One scene (page) of a video, drawn frame after frame onto its own canvas, reusing what it can
 * while every frame stays exactly the still render of the page at that time (tested pixel for pixel):
 *
 * - The background and the elements below the first moving one (moving.ts) are the same in every
 *   frame: they are drawn once, into a base bitmap.
 * - Each frame lays out only the elements from the first moving one up, and compares their draw
 *   ops with the last frame's (as data, images by content). Where nothing changed, nothing is drawn.
 *   Otherwise the dirty region is the union of the changed ops' bounds before and after (conservative
 *   device bounds, layout/bounds.ts: the transform's scale about the centre, rotation, strokes and
 *   effects included), grown until no op is cut by its edge: Skia anti-aliases a path that crosses a
 *   clip differently from the same path drawn whole (measured: channel values off by up to 113), but
 *   a path inside the clip comes out exactly as without it. The region is restored from the base and
 *   the ops over it are drawn again, clipped to it.
 *
 * Measured on the 2-core CI machine (frames drawn and read back, no encoding; `openVideo(job, checked,
 * {reuse})` then `frames()`, the median of six runs, 1080×1080 at 30 fps): a photo background, a
 * title, a subtitle and one moving headline took 1.8 ms a frame drawn whole and 1.0 ms with reuse
 * (a quarter of the frame dirty); a photo under twelve shadowed lines of text and one turning badge
 * 13 ms whole and 1.2 ms with reuse. A whole MP4 of the headline page (300 frames) is x264's work
 * above all: 3.35 CPU seconds drawn whole against 3.05 with reuse, about 2.6 s (115 fps) either way.
 */
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { type Page, pageAtTime } from '../../design/index.ts';
import { drawPreparedPage } from '../backends/draw-context.ts';
import type { SourceContext } from '../backends/image-sources.ts';
import type { LoadedImage } from '../backends/images.ts';
import { deviceRectOf, SLACK, signatureOf } from '../backends/op-bounds.ts';
import { type PreparedPage, preparePage } from '../backends/prepare.ts';
import { drawPageOnto } from '../backends/raster.ts';
import { EMPTY_RECT, isEmptyRect, type Rect, unionRect } from '../layout/bounds.ts';
import type { DrawOp, FontCatalog } from '../layout/index.ts';
import { ClipFrames } from './clips.ts';
import type { MediaCatalog } from './media.ts';
import { movingFrom } from './moving.ts';
import type { ScratchDir } from './scratch.ts';

export interface SceneSetup {
  fonts: FontCatalog;
  /** The job's image sources (assets, URL policy). */
  context: SourceContext;
  scale: number;
  /** Output pixels of the page at `scale`. */
  width: number;
  height: number;
  media: MediaCatalog;
  scratch: ScratchDir;
  /** false: every frame is drawn whole, as a still is (the reference the reuse is measured against). */
  reuse: boolean;
}

/** How much drawing the frames of a scene took. */
export interface SceneStats {
  frames: number;
  /** Frames in which something changed, and the device pixels their dirty regions covered. */
  redrawn: number;
  dirtyPixels: number;
}

interface Footprint {
  signature: string;
  /** Device pixels, grown by the slack, rounded out. */
  rect: Rect;
}

const TRANSPARENT = '#00000000';

const contains = (outer: Rect, inner: Rect): boolean =>
  inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
const intersects = (a: Rect, b: Rect): boolean => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

function footprintsOf(prepared: PreparedPage, scale: number): Map<string, Footprint> {
  const out = new Map<string, Footprint>();
  prepared.layout.ops.forEach((op, index) => {
    const [l, t, r, b] = deviceRectOf(op, scale);
    const rect: Rect = isEmptyRect([l, t, r, b])
      ? EMPTY_RECT
      : [Math.floor(l) - SLACK, Math.floor(t) - SLACK, Math.ceil(r) + SLACK, Math.ceil(b) + SLACK];
    const id = op.op === 'group' && op.elementId ? op.elementId : `#${index}`;
    out.set(id, { signature: signatureOf(op, prepared.imageIds), rect });
  });
  return out;
}

/** Draws `ops` of a prepared page at `scale` over what the canvas holds, clipped to `clip` (device pixels). */
function drawOver(
  canvas: Canvas,
  prepared: PreparedPage,
  ops: DrawOp[],
  page: Page,
  scale: number,
  clip?: Rect,
) {
  const ctx = canvas.getContext('2d');
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (clip) {
    ctx.beginPath();
    ctx.rect(clip[0], clip[1], clip[2] - clip[0], clip[3] - clip[1]);
    ctx.clip();
  }
  ctx.scale(scale, scale);
  drawPreparedPage(ctx, { ...prepared, layout: { ...prepared.layout, ops } }, page.id, {
    width: canvas.width,
    height: canvas.height,
    layerScale: 1,
  });
  ctx.restore();
}

export class SceneRenderer {
  readonly canvas: Canvas;
  readonly stats: SceneStats = { frames: 0, redrawn: 0, dirtyPixels: 0 };
  private base: Canvas | null = null;
  private readonly from: number;
  private previous: Map<string, Footprint> | null = null;
  private readonly clips: ClipFrames;
  private readonly context: SourceContext;

  constructor(
    private readonly page: Page,
    private readonly setup: SceneSetup,
  ) {
    this.canvas = createCanvas(setup.width, setup.height);
    this.from = movingFrom(page);
    this.clips = new ClipFrames(setup.media, setup.scratch, true);
    this.context = {
      ...setup.context,
      videoFrames: this.clips,
      loadedImages: new Map<string, LoadedImage>(),
    };
  }

  /** Draws the frame `timeMs` into the scene onto `canvas` (times come in order); false when nothing changed. */
  async draw(timeMs: number): Promise<boolean> {
    this.stats.frames++;
    const { scale } = this.setup;
    const { page, scales } = pageAtTime(this.page, timeMs, { mediaDurationMs: this.setup.media.durationMs });
    if (!this.setup.reuse) {
      const prepared = await preparePage(page, this.setup.fonts, this.context, scale, scales);
      drawPageOnto(this.canvas, prepared, page.id, scale, true);
      this.stats.redrawn++;
      this.stats.dirtyPixels += this.canvas.width * this.canvas.height;
      return true;
    }
    if (!this.base) {
      await this.drawFirst(page, scales);
      return true;
    }
    // Nothing moves on this page: every frame is the first.
    if (this.from >= page.elements.length) return false;
    const moving = { ...page, background: TRANSPARENT, elements: page.elements.slice(this.from) };
    const prepared = await preparePage(moving, this.setup.fonts, this.context, scale, scales);
    const now = footprintsOf(prepared, scale);
    const dirty = this.dirtyRegion(now);
    this.previous = now;
    if (!dirty) return false;
    const [l, t, r, b] = dirty;
    // The base is opaque (drawn over white), so drawing it over the old pixels replaces them; 'copy'
    // would clear everything outside the drawn rectangle too.
    const ctx = this.canvas.getContext('2d');
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.base, l, t, r - l, b - t, l, t, r - l, b - t);
    ctx.restore();
    // Ops wholly outside the region paint nothing in it (their bounds are conservative): skipped.
    const over = prepared.layout.ops.filter((op, index) => {
      const id = op.op === 'group' && op.elementId ? op.elementId : `#${index}`;
      const rect = now.get(id)?.rect ?? EMPTY_RECT;
      return !isEmptyRect(rect) && intersects(rect, dirty);
    });
    drawOver(this.canvas, prepared, over, page, scale, dirty);
    this.stats.redrawn++;
    this.stats.dirtyPixels += (r - l) * (b - t);
    return true;
  }

  /** The first frame: the base (background and what lies below the first moving element), then the rest. */
  private async drawFirst(page: Page, scales: ReadonlyMap<string, number>): Promise<void> {
    const { scale } = this.setup;
    const prepared = await preparePage(page, this.setup.fonts, this.context, scale, scales);
    const movingIds = new Set(page.elements.slice(this.from).map((element) => element.id));
    const ops = prepared.layout.ops;
    const split = ops.findIndex((op) => op.op === 'group' && op.elementId && movingIds.has(op.elementId));
    const below = split < 0 ? ops.length : split;
    this.base = createCanvas(this.canvas.width, this.canvas.height);
    drawPageOnto(
      this.base,
      { ...prepared, layout: { ...prepared.layout, ops: ops.slice(0, below) } },
      page.id,
      scale,
      true,
    );
    const ctx = this.canvas.getContext('2d');
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalCompositeOperation = 'copy';
    ctx.drawImage(this.base, 0, 0);
    ctx.restore();
    const above = ops.slice(below);
    drawOver(this.canvas, prepared, above, page, scale);
    this.previous = footprintsOf({ ...prepared, layout: { ...prepared.layout, ops: above } }, scale);
    this.stats.redrawn++;
    this.stats.dirtyPixels += this.canvas.width * this.canvas.height;
  }

  /** The device rectangle to draw again, or null when no op changed. */
  private dirtyRegion(now: Map<string, Footprint>): Rect | null {
    const before = this.previous ?? new Map<string, Footprint>();
    let dirty = EMPTY_RECT;
    for (const id of new Set([...before.keys(), ...now.keys()])) {
      const a = before.get(id);
      const b = now.get(id);
      if (a && b && a.signature === b.signature) continue;
      if (a) dirty = unionRect(dirty, a.rect);
      if (b) dirty = unionRect(dirty, b.rect);
    }
    if (isEmptyRect(dirty)) return null;
    // Grown until every op it touches lies wholly inside (or beyond the canvas, as in a whole draw).
    for (let grown = true; grown; ) {
      grown = false;
      for (const { rect } of now.values()) {
        if (isEmptyRect(rect) || !intersects(rect, dirty) || contains(dirty, rect)) continue;
        dirty = unionRect(dirty, rect);
        grown = true;
      }
    }
    const clamped: Rect = [
      Math.max(0, dirty[0]),
      Math.max(0, dirty[1]),
      Math.min(this.canvas.width, dirty[2]),
      Math.min(this.canvas.height, dirty[3]),
    ];
    return clamped[0] < clamped[2] && clamped[1] < clamped[3] ? clamped : null;
  }

  /** Stops the scene's clip decoders (waiting for them to exit) and frees its canvases. */
  async close(): Promise<void> {
    await this.clips.close();
    for (const canvas of [this.canvas, this.base]) {
      if (!canvas) continue;
      // Frees Skia's pixels now; the GC does not see that native memory.
      canvas.width = 1;
      canvas.height = 1;
    }
  }
}
