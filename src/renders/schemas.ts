/** Payloads of the render routes: the spec's request fields plus the contract's `scale` and `quality`. */
import { z } from 'zod';
import { modificationsSchema } from '../design/index.ts';

export const renderRequestSchema = z
  .object({
    format: z.enum(['png', 'jpeg', 'pdf']).default('png'),
    modifications: modificationsSchema.optional(),
    pageId: z.string().min(1).max(64).optional(),
    allPages: z.boolean().optional(),
    idempotencyKey: z.string().min(1).max(255).optional(),
    scale: z.number().min(1).max(4).optional().describe('Raster only; 1-4, default 1'),
    quality: z.number().int().min(1).max(100).optional().describe('JPEG only; 1-100, default 90'),
    async: z
      .boolean()
      .optional()
      .describe(
        'Render in the background: 202 with the render id at once; `GET /v1/renders/{id}` and the ' +
          '`render.completed` / `render.failed` webhooks tell the outcome. Charged when accepted.',
      ),
  })
  .strict()
  .meta({
    'x-examples': {
      png: {
        summary: 'A PNG with variables filled in',
        value: {
          format: 'png',
          modifications: { headline: 'Summer sale', photo: 'asset:ast_4kQ9dXw2LmPz7RtYb1NcVe' },
          idempotencyKey: 'order-1042',
        },
      },
      allPages: { summary: 'Every page, one PNG each', value: { format: 'png', allPages: true } },
    },
  });

export type RenderRequest = z.infer<typeof renderRequestSchema>;

export const renderResultSchema = z
  .object({
    id: z.string(),
    templateId: z.string(),
    format: z.enum(['png', 'jpeg', 'pdf']),
    url: z.string().nullable(),
    byteSize: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    createdAt: z.string(),
    credits: z.object({ charged: z.number().int(), balanceAfter: z.number().int() }),
    expired: z.boolean().optional(),
  })
  .meta({ id: 'RenderResult' });

export type RenderResult = z.infer<typeof renderResultSchema>;

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

/** One result, or `{pages}` for `allPages` with png/jpeg (one file, and one credit, per page). */
export const renderResponseSchema = z
  .union([renderResultSchema, z.object({ pages: z.array(renderResultSchema) })])
  .meta({
    'x-examples': {
      result: { summary: 'One file', value: exampleResult(1) },
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
    format: z.enum(['png', 'jpeg', 'pdf']),
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
