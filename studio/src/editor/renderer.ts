/**
 * Draws a page onto the editor's canvas with the engine (layoutPage + drawPage), exactly as the
 * server renders it, scaled for zoom × devicePixelRatio. Layout is memoised per page object (the
 * document is immutable, so an unchanged page is the same object) and per scale, image and font
 * revision; a drag re-lays out only the page it changes.
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
import type { EditorFonts } from './contract.ts';
import { ImageCache } from './images.ts';

export interface RendererOptions {
  loadImage(src: string): Promise<CanvasImageSource & { width: number; height: number }>;
  fonts: EditorFonts;
  /** Something the drawing depends on arrived (an image, the fonts): draw again. */
  invalidate(): void;
}

export class PageRenderer {
  private readonly images: ImageCache;
  private measurer: TextMeasurer;
  private fontRevision = 0;
  private readonly layouts = new WeakMap<Page, { key: string; result: LayoutResult }>();
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
    this.images = new ImageCache(options.loadImage, options.invalidate);
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
    for (const el of page.elements) {
      if (el.type !== 'text') continue;
      const family = resolveFamily(this.fonts, el.fontFamily);
      const key = `${el.fontStyle} ${el.fontWeight} 16px "${family}"`;
      if (this.requestedFaces.has(key)) continue;
      this.requestedFaces.add(key);
      if (this.workspaceFamilies.has(el.fontFamily.trim().toLowerCase())) {
        this.awaitFace(this.options.fonts.loadFamily(el.fontFamily).then((added) => added));
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

  /** Draws `page` into `canvas` (resized to fit); returns why the layout failed, or null. */
  draw(canvas: HTMLCanvasElement, page: Page, zoom: number, dpr: number): string | null {
    const scale = zoom * dpr;
    const width = Math.max(1, Math.round(page.width * scale));
    const height = Math.max(1, Math.round(page.height * scale));
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return 'this browser has no 2D canvas';
    this.ensureFaces(page);
    const images = this.images.forPage(page);
    const result = this.layout(page, images, scale);
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
  ): LayoutResult {
    const key = `${scale}|${this.images.revision}|${this.fontRevision}`;
    const cached = this.layouts.get(page);
    if (cached?.key === key) return cached.result;
    const sizes = new Map([...images].map(([k, img]) => [k, { width: img.width, height: img.height }]));
    const result = layoutPage(page, {
      measurer: this.measurer,
      fonts: this.fonts,
      images: sizes,
      deviceScale: scale,
    });
    this.layouts.set(page, { key, result });
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
