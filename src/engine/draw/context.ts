/**
 * The minimal, structural Canvas 2D surface the drawing step uses. Both @napi-rs/canvas contexts
 * (raster and PDF pages) and a browser CanvasRenderingContext2D satisfy it, so drawing code never
 * names a concrete canvas library. `P` is the host's Path2D type, `I` its drawable image type.
 */

export interface GradientLike {
  addColorStop(offset: number, color: string): void;
}

export interface TextMetricsLike {
  width: number;
  fontBoundingBoxAscent: number;
  fontBoundingBoxDescent: number;
}

/** A 2D affine matrix as Canvas `getTransform()` returns it (a DOMMatrix has these fields). */
export interface MatrixLike {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

export interface DrawContext<P, I> {
  save(): void;
  restore(): void;
  transform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  getTransform(): MatrixLike;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  /** CSS filter applied to what is drawn next (effects and image filters, on layers). */
  filter: string;
  globalCompositeOperation: GlobalCompositeOperation;
  imageSmoothingEnabled: boolean;
  imageSmoothingQuality: ImageSmoothingQuality;
  fillRect(x: number, y: number, width: number, height: number): void;
  globalAlpha: number;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  lineCap: CanvasLineCap;
  lineJoin: CanvasLineJoin;
  miterLimit: number;
  lineDashOffset: number;
  setLineDash(segments: number[]): void;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  direction: CanvasDirection;
  letterSpacing: string;
  wordSpacing: string;
  fill(path: P, fillRule?: CanvasFillRule): void;
  stroke(path: P): void;
  clip(path: P, fillRule?: CanvasFillRule): void;
  fillText(text: string, x: number, y: number): void;
  strokeText(text: string, x: number, y: number): void;
  measureText(text: string): TextMetricsLike;
  drawImage(image: I, dx: number, dy: number, dw: number, dh: number): void;
  createLinearGradient(x0: number, y0: number, x1: number, y1: number): GradientLike;
  createRadialGradient(x0: number, y0: number, r0: number, x1: number, y1: number, r1: number): GradientLike;
  /** A PDF page's link annotation (Skia's PDF context has it; raster and browser contexts do not). */
  annotateLinkUrl?(left: number, top: number, right: number, bottom: number, url: string): void;
}

/** An offscreen raster surface for effects and image filters (see draw/effects.ts). */
export interface Layer<P, I> {
  ctx: DrawContext<P, I>;
  /** The layer as something `drawImage` takes. */
  image: I;
  /** The host to draw into the layer with (a PDF host's image swaps do not apply to pixels). */
  host: DrawHost<P, I>;
  /** Frees the layer's pixels at once (native memory the garbage collector does not see). */
  release(): void;
}

/** What the host supplies besides the context: path construction and loaded images. */
export interface DrawHost<P, I> {
  createPath(d: string): P;
  /** The drawable for an image op (its key and device size); undefined fails the render. */
  image(key: string, deviceWidth: number, deviceHeight: number): I | undefined;
  /**
   * A transparent raster layer of width × height pixels. Without it, shadows, blurs and image
   * filters are left out (the content itself is still drawn).
   */
  layer?(width: number, height: number): Layer<P, I>;
  /**
   * Layer pixels per unit of the context's device space: 1 for a raster canvas (its device space
   * is pixels), the PDF raster scale for a PDF page (its device space is points). Default 1.
   */
  layerScale?: number;
  /** The target's size in its device space: layers never cover more than this, plus an effect's reach. */
  viewport?: { width: number; height: number };
}
