/**
 * Public API of the design document model: schema and types, validation with limits, migrations,
 * modifications, colours and image sources. Pure: no I/O, runs in Node and in the browser.
 */

export { type DesignLimits, defaultDesignLimits, designBounds } from './bounds.ts';
export { COLOR_MESSAGE, colorSchema, isColor, parseColor, type Rgba, toCssRgba } from './color.ts';
export { effectReach, type PageCost, pageCost } from './cost.ts';
export {
  type BarcodeElement,
  type BarcodeFormat,
  barcodeElementSchema,
  barcodeFormats,
  type Element,
  type ElementInput,
  type ElementType,
  type EllipseElement,
  elementIdSchema,
  elementSchema,
  elementTypes,
  ellipseElementSchema,
  type GroupElement,
  type GroupElementInput,
  groupElementSchema,
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
  type VideoElement,
  videoElementSchema,
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
export {
  type Animation,
  type AnimationPreset,
  type AudioTrack,
  animationPresets,
  animationSchema,
  audioTrackSchema,
  DEFAULT_ANIMATION_MS,
  DEFAULT_PAGE_DURATION_MS,
  type Easing,
  easings,
  type Keyframe,
  keyframeSchema,
  motionBounds,
  type Transition,
  transitionSchema,
} from './motion.ts';
export {
  type DocumentPaint,
  type Gradient,
  type GradientStop,
  gradientSchema,
  isGradient,
  type LinearGradient,
  paintSchema,
  type RadialGradient,
} from './paint.ts';
export { resizeDocument, resizeElement, resizePage, type TargetSize } from './resize.ts';
export {
  linkSchema,
  type Span,
  type SpanInput,
  spanSchema,
  type TextHighlight,
  type TextStroke,
  textHighlightSchema,
  textStrokeSchema,
} from './rich-text.ts';
export {
  type DesignDocument,
  type DesignDocumentInput,
  designDocumentInputSchema,
  designDocumentSchema,
  type ImageBackground,
  imageBackgroundSchema,
  isImageBackground,
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
  animationWindow,
  clipTimeMs,
  ease,
  frameCount,
  frameTimeMs,
  layersAt,
  mediaSources,
  type PageAtTime,
  type Pose,
  pageAtTime,
  pageDurationMs,
  parseVideoFrameKey,
  poseAt,
  revealText,
  type Scene,
  type SceneLayer,
  scenesOf,
  stillTimeMs,
  type TimeOptions,
  videoFrameKey,
} from './timeline.ts';
export { mapElements, pageElements, type Visit, walkElements } from './tree.ts';
export {
  createBlankDocument,
  documentSummary,
  findPage,
  type ParseResult,
  parseDesignDocument,
  resolveLimits,
  textLength,
} from './validate.ts';
export {
  type TemplateVariable,
  templateVariables,
  type VariableKind,
  type VariableTarget,
} from './variables.ts';
