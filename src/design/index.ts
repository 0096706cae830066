/**
 * Public API of the design document model: schema and types, validation with limits, migrations,
 * modifications, colours and image sources. Pure: no I/O, runs in Node and in the browser.
 */
export { type DesignLimits, defaultDesignLimits, designBounds } from './bounds.ts';
export { COLOR_MESSAGE, colorSchema, isColor, parseColor, type Rgba, toCssRgba } from './color.ts';
export {
  type Element,
  type ElementInput,
  type ElementType,
  type EllipseElement,
  elementIdSchema,
  elementSchema,
  elementTypes,
  ellipseElementSchema,
  type ImageElement,
  imageElementSchema,
  type LineElement,
  lineElementSchema,
  type QrElement,
  qrElementSchema,
  type RectElement,
  rectElementSchema,
  type SvgElement,
  svgElementSchema,
  type TextElement,
  textElementSchema,
} from './elements.ts';
export {
  assetIdOf,
  classifyImageSrc,
  IMAGE_SRC_MESSAGE,
  type ImageSrcKind,
  imageFitSchema,
  imageSrcSchema,
} from './image-src.ts';
export { fromZodIssues, MAX_ISSUES } from './issues.ts';
export {
  type Migration,
  type MigrationOptions,
  type MigrationResult,
  migrateToCurrent,
  migrations,
  type RawDocument,
} from './migrations.ts';
export {
  applyModifications,
  canonicalModifications,
  createModificationsSchema,
  defaultModificationLimits,
  expandPlaceholders,
  type ModificationLimits,
  type ModificationResult,
  type Modifications,
  modificationsSchema,
  primaryProperty,
  referencedVariables,
} from './modifications.ts';
export { resizeDocument, resizeElement, resizePage, type TargetSize } from './resize.ts';
export {
  type DesignDocument,
  type DesignDocumentInput,
  designDocumentInputSchema,
  designDocumentSchema,
  type ImageBackground,
  imageBackgroundSchema,
  type Page,
  type PageBackground,
  type PageInput,
  pageBackgroundSchema,
  pageIdSchema,
  pageSchema,
  SCHEMA_VERSION,
  storedDesignDocumentSchema,
  variablesSchema,
} from './schema.ts';
export {
  createBlankDocument,
  documentSummary,
  findPage,
  type ParseResult,
  parseDesignDocument,
  resolveLimits,
} from './validate.ts';
