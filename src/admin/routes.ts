/**
 * The operator API under `/admin/v1` (Bearer PLATEN_ADMIN_TOKEN): workspaces, credits and API keys.
 * One more entry point onto the workspace, credit and API-key services; the `platen admin` command
 * wraps each route.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ApiKeyService, scopeSchema } from '../auth/index.ts';
import { type CreditService, MAX_CREDIT_BALANCE, MAX_CREDIT_CHANGE } from '../credits/service.ts';
import { errorEnvelopeSchema } from '../http/openapi.ts';
import type { WorkspaceService } from '../workspaces/service.ts';

const tags = ['operator'];
const security = [{ adminToken: [] }];
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};

const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  creditBalance: z.number().int(),
  suspended: z.boolean(),
});
const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(scopeSchema),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
const createdKeySchema = apiKeySchema.extend({ key: z.string() });

const idParams = z.object({ id: z.string().max(200) });
const createWorkspaceBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    credits: z.number().int().min(0).max(MAX_CREDIT_CHANGE).optional(),
  })
  .strict();
const patchWorkspaceBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), suspended: z.boolean().optional() })
  .strict();
const creditsBody = z
  .object({
    amount: z
      .number()
      .int()
      .min(-MAX_CREDIT_CHANGE)
      .max(MAX_CREDIT_CHANGE)
      .refine((n) => n !== 0, 'Must not be zero')
      .describe(
        `Credits to grant (positive) or withdraw (negative), at most ${MAX_CREDIT_CHANGE} either way; ` +
          `a grant may not take the balance above ${MAX_CREDIT_BALANCE} (400 VALIDATION_FAILED).`,
      ),
    reason: z.string().max(500).optional(),
  })
  .strict();
const createKeyBody = z
  .object({ name: z.string().trim().max(200).optional(), scopes: z.array(scopeSchema).min(1).max(5) })
  .strict();

export interface OperatorServices {
  workspaces: WorkspaceService;
  credits: CreditService;
  apiKeys: ApiKeyService;
}

export function operatorRoutes({ workspaces, credits, apiKeys }: OperatorServices) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const config = { auth: 'operator' as const };

    app.post(
      '/admin/v1/workspaces',
      {
        config,
        schema: { tags, security, body: createWorkspaceBody, response: { 201: workspaceSchema, ...errors } },
      },
      async (request, reply) => reply.status(201).send(await workspaces.create(request.body, 'operator')),
    );

    app.get(
      '/admin/v1/workspaces',
      {
        config,
        schema: {
          tags,
          security,
          response: { 200: z.object({ items: z.array(workspaceSchema) }), ...errors },
        },
      },
      async () => ({ items: await workspaces.list() }),
    );

    app.get(
      '/admin/v1/workspaces/:id',
      { config, schema: { tags, security, params: idParams, response: { 200: workspaceSchema, ...errors } } },
      async (request) => workspaces.get(request.params.id),
    );

    app.patch(
      '/admin/v1/workspaces/:id',
      {
        config,
        schema: {
          tags,
          security,
          params: idParams,
          body: patchWorkspaceBody,
          response: { 200: workspaceSchema, ...errors },
        },
      },
      async (request) => workspaces.update(request.params.id, request.body),
    );

    app.post(
      '/admin/v1/workspaces/:id/credits',
      {
        config,
        schema: {
          tags,
          security,
          params: idParams,
          body: creditsBody,
          response: { 200: z.object({ creditBalance: z.number().int() }), ...errors },
        },
      },
      async (request) => {
        const { id } = await workspaces.get(request.params.id);
        const { amount } = request.body;
        const reason = request.body.reason ?? (amount > 0 ? 'operator grant' : 'operator withdrawal');
        return { creditBalance: await credits.adjust(id, amount, reason, 'operator') };
      },
    );

    app.get(
      '/admin/v1/workspaces/:id/ledger',
      { config, schema: { tags, security, params: idParams } },
      async (request) => {
        const { id } = await workspaces.get(request.params.id);
        return { items: await credits.ledger(id) };
      },
    );

    app.post(
      '/admin/v1/workspaces/:id/api-keys',
      {
        config,
        schema: {
          tags,
          security,
          params: idParams,
          body: createKeyBody,
          response: { 201: createdKeySchema, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = await workspaces.get(request.params.id);
        const { name = 'API key', scopes } = request.body;
        return reply.status(201).send(await apiKeys.create(id, { name, scopes }));
      },
    );

    app.get(
      '/admin/v1/workspaces/:id/api-keys',
      {
        config,
        schema: {
          tags,
          security,
          params: idParams,
          response: { 200: z.object({ items: z.array(apiKeySchema) }), ...errors },
        },
      },
      async (request) => {
        const { id } = await workspaces.get(request.params.id);
        return { items: await apiKeys.list(id) };
      },
    );

    app.delete(
      '/admin/v1/api-keys/:id',
      { config, schema: { tags, security, params: idParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await apiKeys.revoke(request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
