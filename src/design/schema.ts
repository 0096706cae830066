/**
 * The design document schema: pages, backgrounds, variables and the document itself, at
 * `SCHEMA_VERSION`. The schema is the type: every exported type comes from `z.output`/`z.input`.
 * Cross-field rules (unique ids, deployment limits) live in validate.ts, which also migrates first.
 */
import { z } from 'zod';
import { designBounds as B } from './bounds.ts';
import { elementSchema } from './elements.ts';
import { imageFitSchema, imageSrcSchema } from './image-src.ts';
import { audioTrackSchema, pageMotionShape } from './motion.ts';
import { paintSchema } from './paint.ts';

/** Bump with a migration in migrations.ts whenever the shape or a default changes. */
export const SCHEMA_VERSION = 2;

export const pageIdSchema = z.string().min(1).max(B.idLength);

export const imageBackgroundSchema = z.strictObject({
  src: imageSrcSchema,
  fit: imageFitSchema.default('cover'),
});

/** A colour, a gradient (version 2) or an image. */
export const pageBackgroundSchema = z.union([paintSchema, imageBackgroundSchema]);

export const pageSchema = z.strictObject({
  id: pageIdSchema,
  name: z.string().max(B.nameLength).optional(),
  // The schema allows up to designBounds.size; the deployment's maxPageSide is checked later.
  width: z.number().min(1).max(B.size),
  height: z.number().min(1).max(B.size),
  background: pageBackgroundSchema.default('#ffffff'),
  elements: z.array(elementSchema).default(() => []),
  ...pageMotionShape,
});

export const variablesSchema = z
  .record(z.string().min(1).max(B.variableNameLength), z.string().max(B.variableValueLength))
  .refine((vars) => Object.keys(vars).length <= B.variableCount, {
    error: `at most ${B.variableCount} variables`,
  });

const documentShape = {
  schemaVersion: z.literal(SCHEMA_VERSION),
  activePageId: pageIdSchema.optional(),
  variables: variablesSchema.default(() => ({})),
  pages: z.array(pageSchema).min(1),
  /** A soundtrack for video formats (motion), mixed with the clips' sound. */
  audio: audioTrackSchema.optional(),
};

/**
 * The document as clients send it: `activePageId` may be absent. Also the shape to publish as the
 * request body in the OpenAPI document.
 */
export const designDocumentInputSchema = z.strictObject(documentShape);

/**
 * The document as stored and returned: every default filled, `activePageId` present. Its output
 * equals `designDocumentSchema`'s; it exists to give responses a JSON Schema (a transform has none).
 */
export const storedDesignDocumentSchema = z.strictObject({
  ...documentShape,
  activePageId: pageIdSchema,
});

/** Input → stored: fills `activePageId` with the first page's id when it is absent. */
export const designDocumentSchema = designDocumentInputSchema.transform((doc) => ({
  schemaVersion: doc.schemaVersion,
  activePageId: doc.activePageId ?? doc.pages[0]?.id ?? '',
  variables: doc.variables,
  pages: doc.pages,
  ...(doc.audio ? { audio: doc.audio } : {}),
}));

export type DesignDocument = z.output<typeof designDocumentSchema>;
export type DesignDocumentInput = z.input<typeof designDocumentSchema>;
export type Page = z.output<typeof pageSchema>;
export type PageInput = z.input<typeof pageSchema>;
export type PageBackground = z.output<typeof pageBackgroundSchema>;
export type ImageBackground = z.output<typeof imageBackgroundSchema>;

export const isImageBackground = (background: PageBackground): background is ImageBackground =>
  typeof background === 'object' && 'src' in background;
