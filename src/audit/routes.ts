/** `GET /admin/v1/audit-log` (operators): the audit trail, newest first, filtered (service.ts). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES } from './actions.ts';
import type { AuditLog } from './service.ts';

export const auditTag: OpenApiTag = {
  name: 'operator: audit log',
  description:
    'Every sensitive action: who did it (a person by email, the operator token, an API key by prefix), ' +
    'what, in which workspace, to which object, when and from which address.',
};

const auditActorSchema = z
  .object({
    type: z.enum(AUDIT_ACTOR_TYPES),
    id: z
      .string()
      .nullable()
      .describe("The person's user id, or the API key's id; null for the operator token"),
    label: z
      .string()
      .describe("The person's email at the time, the API key's prefix, `operator token`, `setup link`"),
  })
  .meta({ id: 'AuditActor' });

const entrySchema = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: auditActorSchema,
    action: z
      .string()
      .describe('One of the actions listed in docs/api.md, Audit log (e.g. `api_key.created`)'),
    workspaceId: z.string().nullable(),
    target: z.string().nullable().describe('The id acted on'),
    details: z.unknown(),
    address: z.string().nullable().describe('The client address the action came from'),
  })
  .meta({ id: 'AuditEntry' });

const query = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: z.string().max(500).optional(),
    workspaceId: z.string().max(200).optional(),
    action: z.enum(AUDIT_ACTIONS).optional(),
    userId: z.string().max(200).optional().describe("A person's user id (or an API key's id)"),
  })
  .strict();

export function auditRoutes(audit: AuditLog) {
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
      async (request) => audit.list(principalOf(request), request.query),
    );
  };
}
