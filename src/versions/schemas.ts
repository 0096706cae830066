/** Payload schemas of the version routes (docs/versions.md); they validate requests and feed OpenAPI. */
import { z } from 'zod';
import { templateIdParams } from '../templates/schemas.ts';

const versionNumber = z.coerce.number().int().min(1).max(1_000_000);

/** A path or query value naming a version: its number or `latest`. */
const pinField = z.union([z.literal('latest'), versionNumber]);

/** A diff side: a number, `latest`, or `draft`. */
const sideField = z.union([z.literal('latest'), z.literal('draft'), versionNumber]);

/** The `:version` of a path: a number or `latest` (the embed routes name their template otherwise). */
export const versionPathField = pinField.describe('A version number, or `latest` (the last published)');

export const versionParams = templateIdParams.extend({ version: versionPathField });

export const publishBody = z
  .object({
    note: z.string().trim().min(1).max(500).optional().describe('What changed, for the history'),
  })
  .strict();

export const templateVersionSchema = z
  .object({
    templateId: z.string(),
    number: z.number().int().describe('1, 2, 3… per template'),
    note: z.string().nullable(),
    width: z.number().int(),
    height: z.number().int(),
    pageCount: z.number().int(),
    draftRevision: z.number().int().describe("The draft's revision that was published"),
    publishedBy: z.string().describe('Who published it (`api_key:…`, `person:…`, `oauth:…`, `embed:…`)'),
    createdAt: z.string(),
  })
  .meta({ id: 'TemplateVersion' });

export const templateVersionWithDocumentSchema = templateVersionSchema
  .extend({ document: z.record(z.string(), z.unknown()).describe('The design document as published') })
  .meta({ id: 'TemplateVersionWithDocument' });

export const versionListSchema = z.object({
  items: z.array(templateVersionSchema),
  nextCursor: z.string().nullable(),
});

export const versionListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(500).optional(),
  })
  .strict();

export const diffQuery = z
  .object({
    from: sideField.default('latest').describe('A version number, `latest` (default) or `draft`'),
    to: sideField.default('draft').describe('A version number, `latest` or `draft` (default)'),
  })
  .strict();

export const diffImageQuery = diffQuery
  .extend({ pageId: z.string().min(1).max(64).optional().describe("Default: the `to` side's active page") })
  .strict();

const sideLabel = z.object({
  version: z.number().int().nullable().describe('null: the draft'),
  revision: z.number().int().nullable().describe("The draft's revision (published, for a version)"),
});

const changeSchema = z
  .object({
    op: z.enum(['add', 'remove', 'set', 'reorder']),
    path: z.string().describe('Where, pages and elements named by id: `pages[p1].elements[title].text`'),
    value: z.unknown().optional().describe('add, remove: the item'),
    from: z.unknown().optional().describe('set: the old value; reorder: the old order of ids'),
    to: z.unknown().optional().describe('set: the new value; reorder: the new order of ids'),
  })
  .meta({ id: 'DocumentChange' });

export const templateDiffSchema = z
  .object({
    from: sideLabel,
    to: sideLabel,
    changes: z.array(changeSchema).describe('In the newer document order, removals last; at most 500'),
    truncated: z.boolean().describe('More than 500 changes: the list was cut'),
  })
  .meta({ id: 'TemplateDiff' });
