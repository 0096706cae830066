/** Request and answer of `POST /v1/templates/:id/preflight` (docs/preflight.md). */
import { z } from 'zod';
import { modificationsSchema } from '../design/index.ts';
import { PREFLIGHT_CODES } from '../engine/preflight/findings.ts';
import {
  MAX_ESTIMATE_ROWS,
  renderFormatSchema,
  renderOptionShape,
  versionPinSchema,
} from '../renders/index.ts';

/** Sample rows one preflight may check: as many as a batch holds. */
export const MAX_PREFLIGHT_ROWS = MAX_ESTIMATE_ROWS;

export const preflightRequestSchema = z
  .object({
    format: renderFormatSchema
      .default('png')
      .describe('The output the checks are for: image resolution is judged per format (150 dpi for PDF)'),
    scale: renderOptionShape.scale,
    pageId: z.string().max(200).optional().describe('Check one page; absent, every page'),
    version: versionPinSchema.optional(),
    timeMs: renderOptionShape.timeMs,
    modifications: modificationsSchema.optional(),
    rows: z
      .array(modificationsSchema)
      .min(1)
      .max(MAX_PREFLIGHT_ROWS)
      .optional()
      .describe(
        'Sample rows, one object of modifications each, as a batch takes them; instead of `modifications`',
      ),
  })
  .strict()
  .refine((body) => body.rows === undefined || body.modifications === undefined, {
    error: 'give `rows` or `modifications`, not both',
    path: ['rows'],
  });

export type PreflightRequest = z.output<typeof preflightRequestSchema>;

export const preflightFindingSchema = z
  .object({
    code: z.enum(PREFLIGHT_CODES),
    severity: z.enum(['error', 'warning', 'info']),
    pageId: z.string().nullable(),
    elementId: z.string().nullable().describe('The element, or null for the page or the whole row'),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional().describe('The measured values behind the message'),
    row: z.number().int().optional().describe('With `rows`: the index of the row it was found in'),
  })
  .meta({ id: 'PreflightFinding' });

export const preflightReportSchema = z
  .object({
    ok: z.boolean().describe('Every row was checked and no finding is an error'),
    counts: z.object({ error: z.number().int(), warning: z.number().int(), info: z.number().int() }),
    findings: z.array(preflightFindingSchema),
    rows: z.number().int().describe('Rows asked about (1 without `rows`)'),
    checkedRows: z.number().int().describe('Rows checked, from the first'),
    complete: z
      .boolean()
      .describe(
        'Every row was checked; false when the render time limit came first (ask again for the rest)',
      ),
    rowsWithErrors: z.array(z.number().int()).describe('Indexes of rows with an error finding'),
  })
  .meta({
    id: 'PreflightReport',
    'x-examples': {
      overflow: {
        summary: 'A headline that does not fit',
        value: {
          ok: false,
          counts: { error: 1, warning: 0, info: 0 },
          findings: [
            {
              code: 'text-below-min-size',
              severity: 'error',
              pageId: 'p1',
              elementId: 'headline',
              message:
                'The text does not fit its box even at minFontSize 24: auto-fit would have to go smaller.',
              details: { minFontSize: 24, height: 172.8, boxHeight: 120, brokeWord: false },
            },
          ],
          rows: 1,
          checkedRows: 1,
          complete: true,
          rowsWithErrors: [0],
        },
      },
    },
  });

export type PreflightResult = z.output<typeof preflightReportSchema>;
