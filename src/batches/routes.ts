/**
 * Bulk renders over HTTP: create a batch from JSON rows or an uploaded CSV, follow its progress and
 * per-row results (the manifest), download its files as one ZIP, cancel it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import yazl from 'yazl';
import { z } from 'zod';
import { requirePrincipal } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import type { FileStore } from '../files/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import {
  EXTENSIONS,
  fileKeyOf,
  perCallerRateLimit,
  type RenderFormat,
  renderFormatSchema,
  renderOptionShape,
  versionPinSchema,
} from '../renders/index.ts';
import { MAX_CSV_BYTES } from './csv.ts';
import { type BatchService, MAX_ROWS } from './service.ts';

export const batchesTag: OpenApiTag = {
  name: 'batches',
  description:
    `Bulk renders: one template, up to ${MAX_ROWS} rows of variables (JSON, or CSV whose header names ` +
    'the variables), each row a background render. Priced in full up front (402 charges nothing); ' +
    'identical rows are free; a bad row fails alone. `batch.completed` fires when no row is pending.',
};
const tag = batchesTag;
const format = renderFormatSchema
  .default('png')
  .describe('As for a render: png, jpeg, pdf, mp4, webm or gif');
const pageId = z.string().min(1).max(64).optional();
const allPages = z
  .boolean()
  .optional()
  .describe('Every page: one file per page (png, jpeg), or one PDF or video of them all');
/** `true` or `false` in a query string. */
const queryFlag = (description: string) =>
  z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true'))
    .describe(description);
/** The CSV form's options in the query: the render route's, read from strings. */
const queryOptions = {
  format,
  pageId,
  scale: z.coerce.number().pipe(renderOptionShape.scale.unwrap()).optional(),
  quality: z.coerce.number().pipe(renderOptionShape.quality.unwrap()).optional(),
  fps: z.coerce.number().pipe(renderOptionShape.fps.unwrap()).optional(),
  dither: queryFlag('GIF only: dither the palette (default true)'),
  timeMs: z.coerce.number().pipe(renderOptionShape.timeMs.unwrap()).optional(),
  allPages: queryFlag('Every page, as in the JSON form'),
  preflight: queryFlag('Preflight every row first and fail, uncharged, each row with an error finding'),
  version: z
    .union([z.literal('latest'), z.coerce.number().pipe(z.number().int().min(1).max(1_000_000))])
    .optional()
    .describe(
      'A published version for every row: its number or `latest` (resolved once). Default: the draft',
    ),
};
const jsonBody = z
  .object({
    format,
    pageId,
    allPages,
    ...renderOptionShape,
    // Taken as strings too ("2") since the first batches: kept so.
    scale: queryOptions.scale,
    quality: queryOptions.quality,
    version: versionPinSchema.optional(),
    preflight: z
      .boolean()
      .optional()
      .describe(
        'Preflight every row first (docs/preflight.md): a row with an error finding fails, uncharged, ' +
          'with `PREFLIGHT_FAILED` and its findings; the others render',
      ),
    rows: z.array(z.record(z.string(), z.string())).min(1).max(MAX_ROWS),
  })
  .strict()
  .meta({
    'x-examples': {
      rows: {
        summary: 'Three rows',
        value: { format: 'png', rows: [{ headline: 'Paris' }, { headline: 'Lyon' }, { headline: 'Nice' }] },
      },
    },
  });
const rowSchema = z.object({
  row: z.number().int().describe('1 for the first row (in CSV: the line after the header)'),
  status: z.enum(['pending', 'done', 'failed']),
  renderId: z.string().nullable(),
  url: z.string().nullable().optional().describe('The file of a done row (null once retention removed it)'),
  urls: z
    .array(z.string().nullable())
    .optional()
    .describe('Instead of `url`: one file per page, when a raster render of several pages made several'),
  error: z.unknown().optional().describe('`{code, details}` of a failed row'),
});
const batchSchema = z
  .object({
    id: z.string(),
    templateId: z.string(),
    format: z.string(),
    status: z.enum(['running', 'completed', 'cancelled']),
    total: z.number().int(),
    progress: z.object({ done: z.number().int(), failed: z.number().int(), pending: z.number().int() }),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    rows: z.array(rowSchema).describe('The manifest: every row with its file URL or its error'),
  })
  .meta({
    id: 'Batch',
    'x-examples': {
      running: {
        summary: 'A batch of three rows, one failed on its own',
        value: {
          id: 'bat_9Zk2rQd1Xo3vB7nT',
          templateId: 'tpl_4hXc8aP2mVq0sLw1',
          format: 'png',
          status: 'running',
          total: 3,
          progress: { done: 1, failed: 1, pending: 1 },
          createdAt: '2026-11-24T12:00:00.000Z',
          finishedAt: null,
          rows: [
            {
              row: 1,
              status: 'done',
              renderId: 'rnd_Q2w8e4R6t1Y3u5I7',
              url: 'https://platen.example.com/files/renders/ws_1/rnd_Q2w8e4R6t1Y3u5I7.png',
            },
            {
              row: 2,
              status: 'failed',
              renderId: null,
              error: {
                code: 'VALIDATION_FAILED',
                details: [{ path: 'modifications.headline', message: 'too long' }],
              },
            },
            { row: 3, status: 'pending', renderId: 'rnd_Z9x7c5V3b1N2m4K6' },
          ],
        },
      },
    },
  });
const templateParams = z.object({ id: z.string().max(200) });
const idParams = z.object({ id: z.string().max(200) });

/**
 * The CSV route takes `text/csv` only: a body of any other type (JSON included, well-formed or not)
 * is 415 before it is read; no body at all reaches the handler as an empty CSV (400).
 */
async function csvOnly(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type'];
  if (type?.split(';')[0]?.trim().toLowerCase() === 'text/csv') return;
  const length = request.headers['content-length'];
  const hasBody =
    type !== undefined ||
    request.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '0');
  if (hasBody)
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the CSV itself as the body, with Content-Type: text/csv.',
    );
}

export function batchRoutes(service: BatchService, files: FileStore, limiter: RateLimiter | null) {
  return async function register(root: FastifyInstance): Promise<void> {
    root.addContentTypeParser(
      'text/csv',
      { parseAs: 'string', bodyLimit: MAX_CSV_BYTES },
      (_request, body, done) => done(null, body),
    );
    const app = root.withTypeProvider<ZodTypeProvider>();
    const perKey = perCallerRateLimit(limiter);
    app.post(
      '/v1/templates/:id/batches',
      {
        config: { auth: 'apiKey', scope: 'render:write' },
        onRequest: perKey,
        schema: operation({
          id: 'createBatch',
          summary: 'Render a template once per row of variables, in the background',
          tag,
          params: templateParams,
          body: jsonBody,
          response: { 201: batchSchema },
          errors: [400, 402, 403, 404, 413, 415, 429],
        }),
      },
      async (request, reply) => {
        const { rows, ...rest } = request.body;
        const batch = await service.create(requirePrincipal(request.principal), request.params.id, {
          ...rest,
          rows,
        });
        return reply.status(201).send(batch);
      },
    );
    app.post(
      '/v1/templates/:id/batches/csv',
      {
        bodyLimit: MAX_CSV_BYTES,
        config: { auth: 'apiKey', scope: 'render:write' },
        onRequest: perKey,
        preParsing: csvOnly,
        schema: operation({
          id: 'createBatchFromCsv',
          summary: 'Render a template once per CSV line (the header names the variables)',
          description: `\`Content-Type: text/csv\`, at most ${MAX_CSV_BYTES / 1024 / 1024} MB and ${MAX_ROWS} lines after the header. Options in the query.`,
          tag,
          params: templateParams,
          querystring: z.object(queryOptions).strict(),
          rawBody: { 'text/csv': { schema: { type: 'string' } } },
          response: { 201: batchSchema },
          errors: [400, 402, 403, 404, 413, 415, 429],
        }),
      },
      async (request, reply) => {
        const csv = typeof request.body === 'string' ? request.body : '';
        const batch = await service.createFromCsv(
          requirePrincipal(request.principal),
          request.params.id,
          csv,
          request.query,
        );
        return reply.status(201).send(batch);
      },
    );
    app.get(
      '/v1/batches/:id',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'getBatch',
          summary: 'Progress and per-row results of a batch',
          tag,
          params: idParams,
          response: { 200: batchSchema },
          errors: [403, 404],
        }),
      },
      async (request) => service.get(requirePrincipal(request.principal), request.params.id),
    );
    app.post(
      '/v1/batches/:id/cancel',
      {
        config: { auth: 'apiKey', scope: 'render:write' },
        schema: operation({
          id: 'cancelBatch',
          summary: 'Cancel a running batch: rows not rendered yet are refunded',
          tag,
          params: idParams,
          bodyRequired: false,
          response: { 200: batchSchema },
          errors: [403, 404, 409],
        }),
      },
      async (request) => service.cancel(requirePrincipal(request.principal), request.params.id),
    );
    app.get(
      '/v1/batches/:id/files.zip',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'downloadBatchZip',
          summary:
            "A ZIP of a batch's rendered files (row-<n>.<ext>, or row-<n>-page-<k>.<ext>) and its manifest.json",
          tag,
          params: idParams,
          rawResponse: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
          response: {},
          errors: [403, 404],
        }),
      },
      async (request, reply) => {
        const batch = await service.get(requirePrincipal(request.principal), request.params.id);
        const zip = new yazl.ZipFile();
        zip.addBuffer(Buffer.from(`${JSON.stringify(batch, null, 2)}\n`), 'manifest.json');
        const extension = EXTENSIONS[batch.format as RenderFormat] ?? 'bin';
        for (const row of batch.rows) {
          const urls = row.urls ?? [row.url ?? null];
          for (const [page, url] of urls.entries()) {
            const key = url ? fileKeyOf({ url } as Parameters<typeof fileKeyOf>[0]) : null;
            const file = key ? await files.getStream(key) : null;
            const name = row.urls ? `row-${row.row}-page-${page + 1}` : `row-${row.row}`;
            // Stored files are compressed already (PNG, JPEG, PDF, video): stored as they are.
            if (file) zip.addReadStream(file.stream, `${name}.${extension}`, { compress: false });
          }
        }
        zip.end();
        const raw: FastifyReply = reply;
        return raw
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="${batch.id}.zip"`)
          .send(zip.outputStream);
      },
    );
  };
}
