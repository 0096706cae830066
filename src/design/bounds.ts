/**
 * Numeric and length bounds of the design document (what the schema accepts), and the
 * configurable deployment limits (what one deployment allows; checked after the schema).
 * The schema bounds are deliberately wider than the default limits, so an operator can raise a
 * limit without a schema change.
 */

export const designBounds = {
  /** Element x/y, and line width/height (a line may point up or left). */
  coordinate: 100_000,
  /** Element width/height and page width/height. */
  size: 100_000,
  /** Degrees, clockwise, either way. */
  rotation: 360,
  idLength: 64,
  nameLength: 200,
  textLength: 10_000,
  /**
   * Characters of text in one document, all text elements together, after modifications too. It
   * bounds the memory and layout work of a render whatever the template and modifications are
   * (a page of dense body copy is about 5,000 characters).
   */
  documentText: 200_000,
  fontFamilyLength: 200,
  fontSize: { min: 1, max: 2000 },
  lineHeight: { min: 0.1, max: 10 },
  letterSpacing: 1000,
  maxLines: 1000,
  strokeWidth: 1000,
  cornerRadius: 100_000,
  dashEntries: 32,
  dashValue: 10_000,
  svgLength: 200_000,
  qrValueLength: 2000,
  /** Characters of a barcode value (a PDF417 or Data Matrix symbol holds about 2,000 at most). */
  barcodeValueLength: 2000,
  /** Spans of one rich text element, and of all text elements of a document together. */
  spansPerElement: 1000,
  documentSpans: 5000,
  /** Characters of a span link (an http(s) or mailto URL). */
  linkLength: 2048,
  /** Stops of one gradient, as the contract fixes (2-16). */
  gradientStops: 16,
  /**
   * Blur radius of an element, a shadow or an image filter, in page units. Blur work grows with the
   * radius (Skia runs three box passes whose cost grows with it); 250 is far past any visible design
   * need (a 250-unit blur already smears a 1080-unit page to a wash) and keeps one blur bounded.
   */
  blurRadius: 250,
  /** Shadow offsets, either way. */
  shadowOffset: 10_000,
  /** Groups inside groups: an element at depth 8 is inside 8 groups (the contract's "up to 8 deep"). */
  groupDepth: 8,
  /** Text stroke width and highlight padding. */
  textStrokeWidth: 500,
  highlightPadding: 1000,
  /** Image sources: URLs are short; data URIs may be as large as a request body allows. */
  urlLength: 8192,
  srcLength: 5_000_000,
  variableCount: 500,
  variableNameLength: 200,
  variableValueLength: 10_000,
} as const;

export interface DesignLimits {
  maxPages: number;
  maxElementsPerPage: number;
  /** Longest page side in document units (px at scale 1). */
  maxPageSide: number;
}

export const defaultDesignLimits: DesignLimits = Object.freeze({
  maxPages: 50,
  maxElementsPerPage: 500,
  maxPageSide: 10_000,
});
