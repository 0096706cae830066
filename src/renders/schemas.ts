/**
 * Payloads of the render routes: the spec's request fields plus the contract's `scale` and
 * `quality`, and Motion's video formats (`mp4`, `webm`, `gif`) with `fps` and `dither`, and
 * `timeMs` for stills of animated pages.
 */
import { z } from 'zod';
import { modificationsSchema, motionBounds } from '../design/index.ts';

/** Still formats: a file per page for png/jpeg (one PDF for every page). */
export const STILL_FORMATS = ['png', 'jpeg', 'pdf'] as const;
/** Video formats: one file holding the selected page, or every page as scenes, whatever their number. */
export const VIDEO_FORMATS = ['mp4', 'webm', 'gif'] as const;
export const RENDER_FORMATS = [...STILL_FORMATS, ...VIDEO_FORMATS] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];
export type VideoRenderFormat = (typeof VIDEO_FORMATS)[number];
export const renderFormatSchema = z.enum(RENDER_FORMATS);
export const isVideoRenderFormat = (format: string): format is VideoRenderFormat =>
  (VIDEO_FORMATS as readonly string[]).includes(format);

/**
 * The render options beyond the spec's fields, one schema for the render route, batches, signed
 * URLs and MCP. Each applies to some formats and is ignored by the others (as `scale` is by PDF),
 * and an ignored option is not part of what makes a render identical.
 */
export const renderOptionShape = {
  scale: z.number().min(1).max(4).optional().describe('Raster and video: 1-4, default 1'),
  quality: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe("1-100: JPEG (default 90), and mp4, webm and gif (the encoder's quality, default 75)"),
  fps: z
    .number()
    .int()
    .min(1)
    .max(60)
    .optional()
    .describe('mp4, webm and gif only: frames per second, 1-60 (gif at most 50; default 30, gif 15)'),
  dither: z
    .boolean()
    .optional()
    .describe(
      'gif only: dither the 256-colour palette (default true); false gives flat areas and smaller files',
    ),
  timeMs: z
    .number()
    .int()
    .min(0)
    .max(motionBounds.timeMs)
    .optional()
    .describe(
      'png, jpeg and pdf only: the time into each page whose state is drawn, in ms (default: when ' +
        'every `in` animation has ended, so the still looks finished)',
    ),
};

/** A published version to render instead of the draft (docs/versions.md). */
export const versionPinSchema = z
  .union([z.number().int().min(1).max(1_000_000), z.literal('latest')])
  .describe(
    'Render a published version instead of the draft: its number, or `latest` (the last published). ' +
      'Absent: the draft. 404 when the template has no such version',
  );

export const renderRequestSchema = z
  .object({
    format: renderFormatSchema
      .default('png')
      .describe(
        '`png`, `jpeg`, `pdf`, or a video: `mp4` (H.264), `webm` (VP9) or `gif`. A video is one file ' +
          '(one credit) of the selected page, or with `allPages` of every page in order as scenes',
      ),
    modifications: modificationsSchema.optional(),
    pageId: z.string().min(1).max(64).optional(),
    allPages: z.boolean().optional(),
    idempotencyKey: z.string().min(1).max(255).optional(),
    version: versionPinSchema.optional(),
    ...renderOptionShape,
    async: z
      .boolean()
      .optional()
      .describe(
        'Render in the background: 202 with the render id at once; `GET /v1/renders/{id}` and the ' +
          '`render.completed` / `render.failed` webhooks tell the outcome. Charged when accepted. ' +
          'Needed for a video too long to render while the request waits (400 says so).',
      ),
  })
  .strict()
  .meta({
    'x-examples': {
      png: {
        summary: 'A PNG with variables filled in, the badge hidden and the button recoloured',
        value: {
          format: 'png',
          modifications: {
            headline: 'Summer sale',
            photo: 'asset:ast_4kQ9dXw2LmPz7RtYb1NcVe',
            'badge.visible': 'false',
            'button.fill': '#2f6fdf',
          },
          idempotencyKey: 'order-1042',
        },
      },
      allPages: { summary: 'Every page, one PNG each', value: { format: 'png', allPages: true } },
      video: {
        summary: 'An MP4 of every page as scenes, in the background (one file, one credit)',
        value: {
          format: 'mp4',
          allPages: true,
          fps: 30,
          modifications: { headline: 'Summer sale' },
          async: true,
        },
      },
      gif: {
        summary: 'A GIF of the active page at 15 frames a second',
        value: { format: 'gif', fps: 15, dither: true },
      },
      still: {
        summary: 'A PNG of an animated page 400 ms in, mid-animation',
        value: { format: 'png', timeMs: 400 },
      },
    },
  });

export type RenderRequest = z.infer<typeof renderRequestSchema>;

export const renderResultSchema = z
  .object({
    id: z.string(),
    templateId: z.string(),
    format: renderFormatSchema,
    url: z.string().nullable(),
    byteSize: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    durationMs: z.number().int().optional().describe("Video formats only: the video's length in ms"),
    frames: z.number().int().optional().describe('Video formats only: its number of frames'),
    createdAt: z.string(),
    credits: z.object({ charged: z.number().int(), balanceAfter: z.number().int() }),
    version: z
      .number()
      .int()
      .optional()
      .describe(
        'The published version rendered, when the request pinned one (`latest` resolved); absent: the draft',
      ),
    expired: z.boolean().optional(),
  })
  .meta({ id: 'RenderResult' });

export type RenderResult = z.infer<typeof renderResultSchema>;

const exampleVideo = {
  id: 'rnd_2Fq8Lm4XcVn7RtZb1KdWp9',
  templateId: 'tpl_3Jd8Wn5QpZr1YkVc6MxBt2',
  format: 'mp4',
  url: 'https://platen.example.com/files/renders/ws_9Fh2Lq7TcVx3NbRz5KdMw1/Hs3Vb9Nq1Xe5Tc7Lz2Md/rnd_2Fq8Lm4XcVn7RtZb1KdWp9.mp4',
  byteSize: 812403,
  width: 1080,
  height: 1080,
  durationMs: 9500,
  frames: 285,
  createdAt: '2026-05-04T09:31:00.000Z',
  credits: { charged: 1, balanceAfter: 96 },
};

const exampleResult = (n: number) => ({
  id: `rnd_7Hc2Kq9VbXe4LmTz0RsPa${n}`,
  templateId: 'tpl_3Jd8Wn5QpZr1YkVc6MxBt2',
  format: 'png',
  url: `https://platen.example.com/files/renders/ws_9Fh2Lq7TcVx3NbRz5KdMw1/Qp4Zr8Wd2Kx6Vn1Jc5Hb/rnd_7Hc2Kq9VbXe4LmTz0RsPa${n}.png`,
  byteSize: 48213,
  width: 1080,
  height: 1080,
  createdAt: '2026-05-04T09:30:00.000Z',
  credits: { charged: 1, balanceAfter: 97 },
});

/** One result, or `{pages}` for `allPages` with png/jpeg (one file, and one credit, per page); a video is one file. */
export const renderResponseSchema = z
  .union([renderResultSchema, z.object({ pages: z.array(renderResultSchema) })])
  .meta({
    'x-examples': {
      result: { summary: 'One file', value: exampleResult(1) },
      video: { summary: 'A video: one file, with its length and frame count', value: exampleVideo },
      pages: {
        summary: 'allPages with png or jpeg',
        value: { pages: [exampleResult(2), exampleResult(3)] },
      },
    },
  });

export type RenderResponse = RenderResult | { pages: RenderResult[] };

/** A background render's state: `GET /v1/renders/{id}` while it is not done, and the 202 answer. */
export const renderJobSchema = z
  .object({
    id: z.string().describe('The render id: `GET /v1/renders/{id}` follows it'),
    status: z.enum(['pending', 'done', 'failed']),
    templateId: z.string(),
    format: renderFormatSchema,
    createdAt: z.string(),
    credits: z
      .object({ charged: z.number().int(), balanceAfter: z.number().int() })
      .optional()
      .describe('In the 202 answer: what accepting it charged (0 for an identical earlier render)'),
    result: renderResponseSchema.optional().describe('When done: the result, as the render route answers it'),
    error: z
      .object({ code: z.string(), details: z.unknown().optional() })
      .optional()
      .describe('When failed (and refunded): why, as the render route would have answered'),
  })
  .meta({
    id: 'RenderJob',
    'x-examples': {
      accepted: {
        summary: 'Accepted, rendering in the background',
        value: {
          id: 'rnd_7Hc2Kq9VbXe4LmTz0RsPa1',
          status: 'pending',
          templateId: 'tpl_3Jd8Wn5QpZr1YkVc6MxBt2',
          format: 'png',
          createdAt: '2026-05-04T09:30:00.000Z',
          credits: { charged: 1, balanceAfter: 97 },
        },
      },
    },
  });

export type RenderJobView = z.infer<typeof renderJobSchema>;

/** Rows an estimate may ask about at once: as many as a batch holds. */
export const MAX_ESTIMATE_ROWS = 1000;

/** `POST /v1/templates/:id/estimate`: a render request (or many rows of one), charging nothing. */
export const estimateRequestSchema = renderRequestSchema
  .omit({ async: true })
  .extend({
    rows: z
      .array(modificationsSchema)
      .min(1)
      .max(MAX_ESTIMATE_ROWS)
      .optional()
      .describe('One object of modifications per render, as a batch takes them; instead of `modifications`'),
  })
  .strict()
  .refine((body) => body.rows === undefined || body.modifications === undefined, {
    error: 'give `rows` or `modifications`, not both',
    path: ['rows'],
  });

export const creditEstimateSchema = z
  .object({
    renders: z.number().int(),
    files: z.number().int().describe('Files the renders make: one per page in PNG or JPEG with `allPages`'),
    credits: z.number().int().describe('Credits they would take now; identical renders are free'),
    identical: z
      .number()
      .int()
      .describe('Renders that would be free: identical to one done or to an earlier row'),
    balance: z.number().int(),
    enough: z.boolean().describe('Whether the balance pays `credits`'),
  })
  .meta({ id: 'CreditEstimate' });

/** `POST /v1/templates/:id/preview`: a still of one page, free, small and watermarked. */
export const previewRequestSchema = z
  .object({
    format: z.enum(['png', 'jpeg']).default('png'),
    modifications: modificationsSchema.optional(),
    pageId: renderRequestSchema.shape.pageId,
    version: versionPinSchema.optional(),
    timeMs: renderOptionShape.timeMs,
  })
  .strict();
