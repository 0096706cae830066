/**
 * The operator API under `/admin/v1` (Bearer PLATEN_ADMIN_TOKEN): workspaces, credits and API keys.
 * The `platen admin` command wraps each route.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeSchema } from '../auth/scopes.ts';
import { AppError } from '../core/errors.ts';
import { isIdOf } from '../core/ids.ts';
import type { AppDeps } from '../http/context.ts';
import { errorEnvelopeSchema } from '../http/openapi.ts';
import { MAX_CREDIT_BALANCE, MAX_CREDIT_CHANGE } from '../store/workspaces.ts';

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

function publicWorkspace(w: { id: string; name: string; creditBalance: number; suspended: boolean }) {
  return { id: w.id, name: w.name, creditBalance: w.creditBalance, suspended: w.suspended };
}

export function adminRoutes({ store }: AppDeps) {
  async function workspaceOr404(id: string) {
    const workspace = isIdOf('workspace', id) ? await store.workspaces.get(id) : null;
    if (!workspace) throw new AppError('NOT_FOUND', 'The workspace was not found.');
    return workspace;
  }

  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const config = { auth: 'admin' as const };

    app.post(
      '/admin/v1/workspaces',
      {
        config,
        schema: { tags, security, body: createWorkspaceBody, response: { 201: workspaceSchema, ...errors } },
      },
      async (request, reply) => {
        const workspace = await store.workspaces.create({
          name: request.body.name,
          credits: request.body.credits ?? 0,
          actor: 'operator',
        });
        return reply.status(201).send(publicWorkspace(workspace));
      },
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
      async () => ({
        items: (await store.workspaces.list()).map(publicWorkspace),
      }),
    );

    app.get(
      '/admin/v1/workspaces/:id',
      { config, schema: { tags, security, params: idParams, response: { 200: workspaceSchema, ...errors } } },
      async (request) => publicWorkspace(await workspaceOr404(request.params.id)),
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
      async (request) => {
        const workspace = await workspaceOr404(request.params.id);
        return publicWorkspace(await store.workspaces.update(workspace.id, request.body));
      },
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
        const workspace = await workspaceOr404(request.params.id);
        const reason =
          request.body.reason ?? (request.body.amount > 0 ? 'operator grant' : 'operator withdrawal');
        return {
          creditBalance: await store.workspaces.adjustCredits(
            workspace.id,
            request.body.amount,
            reason,
            'operator',
          ),
        };
      },
    );

    app.get(
      '/admin/v1/workspaces/:id/ledger',
      { config, schema: { tags, security, params: idParams } },
      async (request) => {
        const workspace = await workspaceOr404(request.params.id);
        return { items: await store.workspaces.ledger(workspace.id) };
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
        const workspace = await workspaceOr404(request.params.id);
        const created = await store.apiKeys.create({
          workspaceId: workspace.id,
          name: request.body.name ?? 'API key',
          scopes: request.body.scopes,
        });
        const { workspaceId: _ws, ...shown } = created;
        return reply.status(201).send(shown);
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
        const workspace = await workspaceOr404(request.params.id);
        return { items: (await store.apiKeys.list(workspace.id)).map(({ workspaceId: _ws, ...k }) => k) };
      },
    );

    app.delete(
      '/admin/v1/api-keys/:id',
      { config, schema: { tags, security, params: idParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        if (!isIdOf('apiKey', request.params.id))
          throw new AppError('NOT_FOUND', 'The API key was not found.');
        await store.apiKeys.revoke(request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
