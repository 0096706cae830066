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

export interface DrawContext<P, I> {
  save(): void;
  restore(): void;
  transform(a: number, b: number, c: number, d: number, e: number, f: number): void;
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
  measureText(text: string): TextMetricsLike;
  drawImage(image: I, dx: number, dy: number, dw: number, dh: number): void;
  createLinearGradient(x0: number, y0: number, x1: number, y1: number): GradientLike;
  createRadialGradient(x0: number, y0: number, r0: number, x1: number, y1: number, r1: number): GradientLike;
}

/** What the host supplies besides the context: path construction and loaded images. */
export interface DrawHost<P, I> {
  createPath(d: string): P;
  /** The drawable for an image op (its key and device size); undefined fails the render. */
  image(key: string, deviceWidth: number, deviceHeight: number): I | undefined;
}
