/** Payload schemas of the template routes; the same schemas validate requests and feed OpenAPI. */
import { z } from 'zod';
import { designDocumentExample } from './document-example.ts';

export const templateIdParams = z.object({ id: z.string().max(200) });

export const templateRecordSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    pageCount: z.number().int(),
    revision: z.number().int(),
    shared: z.boolean(),
    ownerUserId: z.string().nullable(),
    thumbnailUrl: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Template' });

/** The document is validated by src/design (clear paths, cross-field checks), so it is opaque here. */
const documentField = z
  .record(z.string(), z.unknown())
  .describe(
    'The design document, `schemaVersion` 2 (version 1 is accepted and migrated): pages of elements ' +
      '(text with rich-text `spans`, image, rect, ellipse, line, svg, qr, barcode, group), gradients, ' +
      'shadows, blur, flips, image crop and filters. Every field: docs/design-document.md',
  );

/** Named request examples of the routes that take a document (`x-examples`, lifted into OpenAPI). */
const documentExamples = {
  'x-examples': {
    document: {
      summary: 'A version 2 design: spans, a gradient, a shadowed group, a barcode',
      value: { name: 'Summer promo', document: designDocumentExample },
    },
  },
};

export const templateWithDocumentSchema = templateRecordSchema
  .extend({ document: documentField })
  .meta({ id: 'TemplateWithDocument' });

const nameField = z.string().trim().min(1).max(200);
const sideField = z.number().int().min(1).max(10000);

const createFields = {
  name: nameField,
  document: documentField.optional(),
  width: sideField.optional(),
  height: sideField.optional(),
};

/** A document, or the size of a blank page: one of the two. */
function documentOrSize(
  body: { document?: unknown; width?: number; height?: number },
  ctx: z.RefinementCtx,
): void {
  if (body.document) {
    if (body.width !== undefined || body.height !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['document'],
        message: 'Give either document or width and height',
      });
    }
    return;
  }
  if (body.width === undefined)
    ctx.addIssue({ code: 'custom', path: ['width'], message: 'Required without document' });
  if (body.height === undefined)
    ctx.addIssue({ code: 'custom', path: ['height'], message: 'Required without document' });
}

export const createTemplateBody = z
  .object({ ...createFields, shared: z.boolean().optional() })
  .strict()
  .superRefine(documentOrSize)
  .meta({
    'x-examples': {
      ...documentExamples['x-examples'],
      blank: {
        summary: 'A blank page of a given size',
        value: { name: 'Promo card', width: 1080, height: 1080 },
      },
    },
  });

/**
 * The create body of an end-user (embed session): no `shared`, since sharing a template with every
 * end-user of the workspace is the workspace's decision (`PATCH /v1/templates/:id`).
 */
export const createOwnTemplateBody = z
  .object(createFields)
  .strict()
  .superRefine(documentOrSize)
  .meta(documentExamples);

export const saveTemplateBody = z
  .object({ document: documentField, name: nameField.optional() })
  .strict()
  .meta(documentExamples);

export const patchTemplateBody = z
  .object({ name: nameField.optional(), shared: z.boolean().optional() })
  .strict();

export const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(500).optional(),
  })
  .strict();

export const templateListSchema = z.object({
  items: z.array(templateRecordSchema),
  nextCursor: z.string().nullable(),
});

export type CreateTemplateBody = z.infer<typeof createTemplateBody>;

const variableTargetSchema = z.object({
  pageId: z.string(),
  elementId: z.string(),
  elementType: z.string(),
  property: z.string().describe('What the value sets: `text`, `src`, `fill`, `value`, `visible` or `color`'),
  box: z.object({ width: z.number(), height: z.number() }).describe('The element box in design units'),
  text: z
    .object({
      fontFamily: z.string(),
      fontSize: z.number(),
      autoFit: z.enum(['none', 'shrink']),
      minFontSize: z.number().describe('How far `autoFit: shrink` may shrink the text'),
      maxLines: z.number().int().nullable(),
    })
    .optional()
    .describe('For text: the size it is drawn at and its auto-fit limits'),
});

export const templateVariablesSchema = z
  .object({
    templateId: z.string(),
    version: z.number().int().nullable().describe('The published version read; null: the draft'),
    variables: z.array(
      z.object({
        name: z.string().describe('The `modifications` key'),
        kind: z.enum(['text', 'image', 'color', 'visibility']),
        default: z.string().nullable().describe('What renders when the key is not given'),
        targets: z.array(variableTargetSchema),
      }),
    ),
  })
  .meta({ id: 'TemplateVariables' });

export const variablesQuery = z
  .object({
    version: z
      .union([z.literal('latest'), z.coerce.number().int().min(1).max(1_000_000)])
      .optional()
      .describe('A published version (its number, or `latest`) instead of the draft'),
  })
  .strict();
