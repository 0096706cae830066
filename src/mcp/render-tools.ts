/**
 * The render tools: render now (or in the background), render a batch of rows, and follow either.
 * Each calls the render or batch service the API routes call, so credits, identical renders,
 * idempotency keys and errors are the API's own; a call takes a token of the render rate limit.
 */
import { z } from 'zod';
import type { Principal } from '../auth/index.ts';
import { MAX_ROWS } from '../batches/index.ts';
import { AppError } from '../core/errors.ts';
import {
  rateLimitKeyOf,
  renderFormatSchema,
  renderOptionShape,
  renderRequestSchema,
} from '../renders/index.ts';
import { templateAppToolMeta } from './app/template-app.ts';
import {
  json,
  parsed,
  type ToolContent,
  type ToolDefinition,
  type ToolServices,
  templateId,
} from './tool-kit.ts';

/** An image this small or smaller comes back inline as image content. */
export const MAX_INLINE_IMAGE_BYTES = 1024 * 1024;
/** Formats a client can show as image content (a GIF shows as an image; MP4 and WebM are not images). */
const INLINE_FORMATS: ReadonlySet<string> = new Set(['png', 'jpeg', 'gif']);

const renderArgs = z.object({ templateId, ...renderRequestSchema.shape }).strict();
const batchArgs = z
  .object({
    templateId,
    rows: z
      .array(z.record(z.string(), z.string()))
      .min(1)
      .max(MAX_ROWS)
      .describe('One object of variables per file, e.g. [{"headline": "Paris"}, {"headline": "Lyon"}]'),
    format: renderFormatSchema.default('png'),
    ...renderOptionShape,
    pageId: renderRequestSchema.shape.pageId,
    allPages: renderRequestSchema.shape.allPages,
    version: renderRequestSchema.shape.version,
    preflight: z
      .boolean()
      .optional()
      .describe(
        'Preflight every row first (as preflight_template): a row with an error finding fails uncharged with PREFLIGHT_FAILED',
      ),
  })
  .strict();
const renderId = z.string().min(1).max(200).describe('A render id (`rnd_…`), as render_template answered');
const batchId = z.string().min(1).max(200).describe('A batch id (`bat_…`), as render_batch answered');

export async function takeRateToken(principal: Principal, services: ToolServices): Promise<void> {
  if (!services.limiter) return;
  const decision = await services.limiter.take(rateLimitKeyOf(principal.actor));
  if (!decision.allowed)
    throw new AppError('RATE_LIMITED', undefined, { retryAfterSeconds: decision.retryAfterSeconds });
}

/** The bytes of a render's file, for inline image content; null when too big or not an image. */
async function inlineImage(
  services: ToolServices,
  result: { url: string | null; format: string; byteSize: number },
): Promise<ToolContent | null> {
  if (!INLINE_FORMATS.has(result.format) || result.url === null || result.byteSize > MAX_INLINE_IMAGE_BYTES)
    return null;
  const prefix = `${services.baseUrl}/files/`;
  if (!result.url.startsWith(prefix)) return null;
  const file = await services.files.get(result.url.slice(prefix.length));
  if (!file) return null;
  return { type: 'image', data: file.bytes.toString('base64'), mimeType: file.contentType };
}

export const RENDER_TOOLS: ToolDefinition[] = [
  {
    name: 'render_template',
    title: 'Render a template',
    description:
      'Renders the draft to PNG, JPEG or PDF, or to a video (mp4, webm, gif: the page animated, or with `allPages` every page in order as scenes) with variables filled in. One credit per file: a video is one file however many pages it plays; `allPages` in PNG or JPEG is one file (and credit) per page. An identical repeat is free; a failed render is refunded. The result has the file URL (and `durationMs`, `frames` for a video); a PNG, JPEG or GIF up to 1 MB also comes back as an image. With `async: true` it answers at once with the render id and `status: pending`: follow it with get_render. A video too long to wait for must use `async: true` (the error says so).',
    scope: 'render:write',
    inputSchema: renderArgs.shape,
    _meta: templateAppToolMeta(),
    call: async (principal, args, services) => {
      const { templateId: id, ...request } = parsed(renderArgs, args);
      await takeRateToken(principal, services);
      if (request.async) return [json(await services.background.accept(principal, id, request))];
      const result = await services.renders.render(principal, id, request);
      const files = 'pages' in result ? result.pages : [result];
      const images = await Promise.all(files.map((file) => inlineImage(services, file)));
      return [json(result), ...images.filter((image): image is ToolContent => image !== null)];
    },
  },
  {
    name: 'get_render',
    title: 'Get a render',
    description:
      'A render by its id: the file URL once done; for a background render still running `status: pending`, or `failed` with the error (its credits refunded).',
    scope: 'template:read',
    inputSchema: { renderId },
    call: async (principal, args, { background }) => [
      json(await background.lookup(principal, parsed(z.object({ renderId }), args).renderId)),
    ],
  },
  {
    name: 'render_batch',
    title: 'Render a batch',
    description: `Renders a template once per row of variables (up to ${MAX_ROWS} rows), in the background, in any render format (a video row is one file). One credit per file; identical rows are free; a batch the balance cannot pay in full is refused, charging nothing; a bad row fails alone. Answers the batch id and progress: follow it with get_batch, whose rows carry each file URL or error.`,
    scope: 'render:write',
    inputSchema: batchArgs.shape,
    call: async (principal, args, services) => {
      const { templateId: id, ...input } = parsed(batchArgs, args);
      await takeRateToken(principal, services);
      return [json(await services.batches.create(principal, id, input))];
    },
  },
  {
    name: 'get_batch',
    title: 'Get a batch',
    description:
      "A batch's progress (done, failed, pending) and per-row results: each row's file URL, or its error and row number.",
    scope: 'template:read',
    inputSchema: { batchId },
    call: async (principal, args, { batches }) => [
      json(await batches.get(principal, parsed(z.object({ batchId }), args).batchId)),
    ],
  },
];
