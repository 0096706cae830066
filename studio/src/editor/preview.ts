/**
 * What the stage draws while previewing: the active page at the playhead exactly as the server
 * draws its frame (design/timeline.ts `pageAtTime`, whose `scales` go to layout), or, with
 * transitions shown, the scenes a video of all pages has at that moment (`layersAt`: the page
 * under the next one fading or sliding in). Pure, so it is unit-tested; memoised for one frame,
 * because the stage redraws on every store ping and a new page object would mean a new layout.
 */
import { layersAt, type Page, pageAtTime, scenesOf, type TimeOptions } from '../../../src/engine/browser.ts';

export interface PreviewLayer {
  page: Page;
  scales: ReadonlyMap<string, number>;
  /** 1 draws it as it is; a scene fading in draws over the one below with this alpha. */
  alpha: number;
  /** Horizontal shift in page units (a slide transition). */
  offsetX: number;
}

/**
 * The layers of the preview at `timeMs` into page `active` of `pages` (bottom first). Without
 * transitions, or when no scene overlaps this one then, it is the one page at that time: the
 * frame a still render with `timeMs`, or a video of this page alone, shows.
 */
export function previewLayers(
  pages: readonly Page[],
  active: number,
  timeMs: number,
  transitions: boolean,
  options: TimeOptions = {},
): PreviewLayer[] {
  const page = pages[active];
  if (!page) return [];
  if (!transitions || pages.length < 2) {
    const timed = pageAtTime(page, timeMs, options);
    return [{ page: timed.page, scales: timed.scales, alpha: 1, offsetX: 0 }];
  }
  const { scenes } = scenesOf(pages);
  const start = scenes[active]?.startMs ?? 0;
  return layersAt(pages, start + timeMs).map((layer) => {
    const timed = pageAtTime(pages[layer.pageIndex] as Page, layer.timeMs, options);
    return { page: timed.page, scales: timed.scales, alpha: layer.alpha, offsetX: layer.offsetX };
  });
}

/** The last frame's layers, kept while nothing they depend on changed. */
export class PreviewMemo {
  private last: {
    pages: readonly Page[];
    active: number;
    timeMs: number;
    transitions: boolean;
    mediaRevision: number;
    layers: PreviewLayer[];
  } | null = null;

  get(
    pages: readonly Page[],
    active: number,
    timeMs: number,
    transitions: boolean,
    mediaRevision: number,
    options: TimeOptions,
  ): PreviewLayer[] {
    const l = this.last;
    if (
      l &&
      l.pages === pages &&
      l.active === active &&
      l.timeMs === timeMs &&
      l.transitions === transitions &&
      l.mediaRevision === mediaRevision
    )
      return l.layers;
    const layers = previewLayers(pages, active, timeMs, transitions, options);
    this.last = { pages, active, timeMs, transitions, mediaRevision, layers };
    return layers;
  }
}
