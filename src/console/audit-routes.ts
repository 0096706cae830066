/** `GET /admin/v1/audit-log` (operator token): the audit log, newest first (audit.ts). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import type { AuditService } from './audit.ts';

export const auditTag: OpenApiTag = {
  name: 'operator: audit log',
  description: 'Who created or revoked API keys, rotated webhook secrets or created operators, and when.',
};

const entrySchema = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: z
      .string()
      .describe(
        '`person:<user id>` for someone signed in, `operator-token` for the operator token, `bootstrap` for the first key, `setup-link` for the first operator',
      ),
    action: z
      .string()
      .describe('`api_key.created`, `api_key.revoked`, `webhook.secret_rotated`, `operator.created`'),
    workspaceId: z.string().nullable(),
    target: z.string().nullable().describe('The id acted on'),
    details: z.unknown(),
  })
  .meta({ id: 'AuditEntry' });

const query = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: z.string().max(500).optional(),
  })
  .strict();

export function auditRoutes(audit: AuditService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/admin/v1/audit-log',
      {
        config: { auth: 'operator' },
        schema: operation({
          id: 'listAuditLog',
          summary: 'The audit log of sensitive actions, newest first',
          tag: auditTag,
          querystring: query,
          response: {
            200: z.object({ items: z.array(entrySchema), nextCursor: z.string().nullable() }),
          },
          errors: [400, 401],
        }),
      },
      async (request) => audit.list(request.query),
    );
  };
}
