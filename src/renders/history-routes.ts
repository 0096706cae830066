/** `GET /v1/renders` (recent renders) and `GET /v1/usage` (per day), for the whole workspace. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../auth/index.ts';
import { operation } from '../http/openapi.ts';
import { MAX_USAGE_DAYS, type RenderHistory } from './history.ts';
import { rendersTag as tag } from './routes.ts';

const sourceSchema = z
  .enum(['api', 'embed', 'mcp', 'url', 'console', 'other'])
  .describe('Who asked: an API key, an embed session, an MCP client (OAuth), a signed URL, the console.');

const renderListItemSchema = z.object({
  id: z.string(),
  templateId: z.string(),
  status: z.enum(['pending', 'done', 'failed']),
  format: z.string(),
  files: z.number().int(),
  credits: z.number().int().describe('Credits charged (a failed render is refunded: see the ledger).'),
  source: sourceSchema,
  url: z.string().nullable().describe('The first file; null until done and once retention removed it.'),
  errorCode: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(500).optional(),
  })
  .strict();

const usageQuery = z
  .object({ days: z.coerce.number().int().min(1).max(MAX_USAGE_DAYS).default(30) })
  .strict();

const usageSchema = z.object({
  since: z.string().describe('The first day counted (UTC, YYYY-MM-DD).'),
  days: z.array(
    z.object({
      day: z.string(),
      format: z.string(),
      source: sourceSchema,
      renders: z.number().int(),
      credits: z.number().int(),
    }),
  ),
});

export function renderHistoryRoutes(history: RenderHistory) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/v1/renders',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'listRenders',
          summary: 'List recent renders',
          description:
            'Newest first, with status, format, files, credits and where the render came from. ' +
            'Identical repeats are not listed again: they are the same render.',
          tag,
          querystring: listQuery,
          response: {
            200: z.object({ items: z.array(renderListItemSchema), nextCursor: z.string().nullable() }),
          },
          errors: [400, 403],
        }),
      },
      async (request) => history.recent(requirePrincipal(request.principal), request.query),
    );

    app.get(
      '/v1/usage',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'getUsage',
          summary: 'Renders and credits per day',
          description:
            'Finished renders of the last `days` days (UTC, today included), per day, format and source.',
          tag,
          querystring: usageQuery,
          response: { 200: usageSchema },
          errors: [400, 403],
        }),
      },
      async (request) => history.usage(requirePrincipal(request.principal), request.query.days),
    );
  };
}
