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
