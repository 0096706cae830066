/**
 * Draws a page onto the editor's canvas with the engine (layoutPage + drawPage), exactly as the
 * server renders it, scaled for zoom × devicePixelRatio. Layout is memoised per page object (the
 * document is immutable, so an unchanged page is the same object) and per scale, image and font
 * revision; a drag re-lays out only the page it changes. A motion preview draws the page at the
 * playhead (with the element scales `pageAtTime` gives), or two scenes composited during a
 * transition.
 */
import {
  type BrowserContext2D,
  bundledFontCatalog,
  createBrowserDrawHost,
  createBrowserMeasurer,
  drawPage,
  type LayoutResult,
  layoutPage,
  type Page,
  resolveFamily,
  type TextMeasurer,
} from '../../../src/engine/browser.ts';
import { textFaces } from '../text-faces.ts';
import type { EditorFonts } from './contract.ts';
import { ImageCache } from './images.ts';
import type { PreviewLayer } from './preview.ts';
import type { VideoSource } from './video-frames.ts';

export interface RendererOptions {
  loadImage(src: string): Promise<CanvasImageSource & { width: number; height: number }>;
  fonts: EditorFonts;
  /** Something the drawing depends on arrived (an image, the fonts): draw again. */
  invalidate(): void;
  /** Where a video asset plays from (the shell's); absent: video elements draw as failed images. */
  loadVideo?(src: string): Promise<VideoSource>;
}

type Scales = ReadonlyMap<string, number> | undefined;

export class PageRenderer {
  private readonly images: ImageCache;
  private measurer: TextMeasurer;
  private fontRevision = 0;
  private readonly layouts = new WeakMap<Page, { key: string; scales: Scales; result: LayoutResult }>();
  /** Layers of a transition are drawn here, then composited. */
  private scratch: HTMLCanvasElement | null = null;
  private fonts = bundledFontCatalog();
  /** Uploaded family names (lower case) of the workspace, once the shell has listed them. */
  private workspaceFamilies = new Set<string>();
  private fontsRegistered = false;
  /** Until the document's fonts have loaded or failed. */
  private fontsPending = true;
  /** Faces asked for after the first load (a family or weight picked in the panel). */
  private readonly requestedFaces = new Set<string>();
  /** Of those, the ones still loading. */
  private facesLoading = 0;

  constructor(private readonly options: RendererOptions) {
    this.images = new ImageCache(options.loadImage, options.invalidate, options.loadVideo);
    this.measurer = createBrowserMeasurer();
    // The measurer memoises widths, so a new one once the real fonts are in.
    options.fonts.ready.then(
      (aliases) => {
        this.fonts = bundledFontCatalog(aliases);
        this.workspaceFamilies = new Set(aliases.map(([family]) => family.trim().toLowerCase()));
        this.fontsRegistered = true;
        this.fontsPending = false;
        this.fontsChanged();
      },
      () => {
        // Without the font files text draws in the browser's fallbacks: nothing more will arrive.
        this.fontsPending = false;
        options.invalidate();
      },
    );
  }

  private fontsChanged(): void {
    this.measurer = createBrowserMeasurer();
    this.fontRevision++;
    this.options.invalidate();
  }

  /**
   * The shell loads the faces the document used when it opened; a face chosen later (another
   * weight, another family) is loaded here through the FontFaceSet, then text is measured again.
   */
  private ensureFaces(page: Page): void {
    if (!this.fontsRegistered || typeof document === 'undefined') return;
    for (const face of textFaces(page)) {
      const family = resolveFamily(this.fonts, face.fontFamily);
      const key = `${face.fontStyle} ${face.fontWeight} 16px "${family}"`;
      if (this.requestedFaces.has(key)) continue;
      this.requestedFaces.add(key);
      if (this.workspaceFamilies.has(face.fontFamily.trim().toLowerCase())) {
        this.awaitFace(this.options.fonts.loadFamily(face.fontFamily).then((added) => added));
        continue;
      }
      if (document.fonts.check(key)) continue;
      this.awaitFace(document.fonts.load(key).then((faces) => faces.length > 0));
    }
  }

  /** Draws again once a face loads (`loaded` true); a face that fails leaves text to the fallbacks. */
  private awaitFace(loading: Promise<boolean>): void {
    this.facesLoading++;
    loading.then(
      (loaded) => {
        this.facesLoading--;
        if (loaded) this.fontsChanged();
        else this.options.invalidate();
      },
      () => {
        this.facesLoading--;
        this.options.invalidate();
      },
    );
  }

  /**
   * True once what the last drawing needed has arrived or failed (fonts, faces asked for later,
   * images): a later draw of the same page gives the same pixels. Shown as the canvas's
   * `aria-busy`, which is also what browser tests wait for before comparing pixels.
   */
  get settled(): boolean {
    return !this.fontsPending && this.facesLoading === 0 && this.images.loading === 0;
  }

  /** The editor closed: video clips stop loading and let go of their frames. */
  dispose(): void {
    this.images.videos?.dispose();
  }

  /** Bumps when a video clip's frame or length arrives (previews at a time depend on lengths). */
  get mediaRevision(): number {
    return this.images.videos?.revision ?? 0;
  }

  /** A video asset's length once its clip has loaded, for looping clips as the server does. */
  readonly mediaDurationMs = (src: string): number | undefined => this.images.videos?.durationMs(src);

  /**
   * Draws a preview's layers (bottom first) into `canvas`, sized for `size` (the active page). One
   * plain layer is drawn as any page; a transition's layers are each drawn whole, then composited
   * with their alpha and horizontal offset.
   */
  drawLayers(
    canvas: HTMLCanvasElement,
    size: { width: number; height: number },
    layers: readonly PreviewLayer[],
    zoom: number,
    dpr: number,
  ): string | null {
    const [only] = layers;
    if (layers.length === 1 && only && only.alpha === 1 && only.offsetX === 0)
      return this.draw(canvas, only.page, zoom, dpr, only.scales);
    const scale = zoom * dpr;
    const width = Math.max(1, Math.round(size.width * scale));
    const height = Math.max(1, Math.round(size.height * scale));
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return 'this browser has no 2D canvas';
    // As the video pipeline composes a transition (src/engine/video): on white, whole pixels, the
    // second scene exactly one width after the first, each with its alpha.
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalCompositeOperation = 'source-over';
    ctx.globalAlpha = 1;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    this.scratch ??= document.createElement('canvas');
    const firstOffset = layers[0]?.offsetX ?? 0;
    const firstX = Math.round((firstOffset * width) / size.width);
    let problem: string | null = null;
    for (const layer of layers) {
      problem ??= this.draw(this.scratch, layer.page, zoom, dpr, layer.scales);
      ctx.globalAlpha = Math.min(1, Math.max(0, layer.alpha));
      ctx.drawImage(this.scratch, firstX + Math.round((layer.offsetX - firstOffset) / size.width) * width, 0);
    }
    ctx.globalAlpha = 1;
    return problem;
  }

  /** Draws `page` into `canvas` (resized to fit); returns why the layout failed, or null. */
  draw(canvas: HTMLCanvasElement, page: Page, zoom: number, dpr: number, scales?: Scales): string | null {
    const scale = zoom * dpr;
    const width = Math.max(1, Math.round(page.width * scale));
    const height = Math.max(1, Math.round(page.height * scale));
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return 'this browser has no 2D canvas';
    this.ensureFaces(page);
    const images = this.images.forPage(page);
    const result = this.layout(page, images, scale, scales);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.setTransform(width / page.width, 0, 0, height / page.height, 0, 0);
    if (!result.ok) {
      drawFailure(ctx, page);
      return result.elementId ? `${result.elementId}: ${result.reason}` : result.reason;
    }
    try {
      drawPage(ctx, result.layout, createBrowserDrawHost(images));
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private layout(
    page: Page,
    images: Map<string, CanvasImageSource & ImageSize>,
    scale: number,
    scales: Scales,
  ): LayoutResult {
    const key = `${scale}|${this.images.revision}|${this.mediaRevision}|${this.fontRevision}`;
    const cached = this.layouts.get(page);
    if (cached?.key === key && (cached.scales === scales || (!cached.scales?.size && !scales?.size)))
      return cached.result;
    const sizes = new Map([...images].map(([k, img]) => [k, { width: img.width, height: img.height }]));
    const result = layoutPage(page, {
      measurer: this.measurer,
      fonts: this.fonts,
      images: sizes,
      deviceScale: scale,
      ...(scales?.size ? { scales } : {}),
    });
    this.layouts.set(page, { key, scales, result });
    return result;
  }
}

interface ImageSize {
  width: number;
  height: number;
}

/** A page that cannot be laid out still shows its extent, so the person can fix the element. */
function drawFailure(ctx: BrowserContext2D, page: Page): void {
  ctx.fillStyle = '#fff4f4';
  ctx.fillRect(0, 0, page.width, page.height);
}
