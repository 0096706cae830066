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
  .strict();

export type RenderRequest = z.infer<typeof renderRequestSchema>;

export const renderResultSchema = z.object({
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
});

export type RenderResult = z.infer<typeof renderResultSchema>;

export const renderResponseSchema = z.union([
  renderResultSchema,
  z.object({ pages: z.array(renderResultSchema) }),
]);

export type RenderResponse = RenderResult | { pages: RenderResult[] };
