/**
 * The operator API under `/admin/v1` (Bearer PLATEN_ADMIN_TOKEN): workspaces, credits and API keys.
 * One more entry point onto the workspace, credit and API-key services; the `platen admin` command
 * wraps each route.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ApiKeyService, principalOf, scopeSchema } from '../auth/index.ts';
import { type CreditService, MAX_CREDIT_BALANCE, MAX_CREDIT_CHANGE } from '../credits/service.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import type { WorkspaceService } from '../workspaces/service.ts';

export const operatorTag: OpenApiTag = {
  name: 'operator',
  description:
    'The operator API under `/admin/v1` (`Authorization: Bearer $PLATEN_ADMIN_TOKEN`): workspaces, ' +
    'credits and API keys. `platen admin …` wraps each operation.',
};
const tag = operatorTag;

const workspaceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    creditBalance: z.number().int(),
    suspended: z.boolean(),
  })
  .meta({ id: 'Workspace' });
const apiKeyFields = {
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('The first 8 characters, for display only'),
  scopes: z.array(scopeSchema),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z
    .string()
    .nullable()
    .describe('When a request last used the key (to the minute); null if never'),
};
const apiKeySchema = z.object(apiKeyFields).meta({ id: 'ApiKey' });
const createdKeySchema = z
  .object({ ...apiKeyFields, key: z.string().describe('The key itself: shown in this response only') })
  .meta({ id: 'NewApiKey' });
const ledgerEntrySchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    delta: z.number().int().describe('Credits added (positive) or taken (negative)'),
    balanceAfter: z.number().int(),
    reason: z.string(),
    actor: z
      .string()
      .describe(
        "Who: `person:<email> (<user id>)` for an operator in the console, `operator-token`, `bootstrap`, or the render's credential",
      ),
    renderId: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'LedgerEntry' });

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
export const createKeyBody = z
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
        schema: operation({
          id: 'createWorkspace',
          summary: 'Create a workspace',
          tag,
          body: createWorkspaceBody,
          response: { 201: workspaceSchema },
          errors: [400, 401, 413, 415],
        }),
      },
      async (request, reply) =>
        reply.status(201).send(await workspaces.create(principalOf(request), request.body)),
    );

    app.get(
      '/admin/v1/workspaces',
      {
        config,
        schema: operation({
          id: 'listWorkspaces',
          summary: 'List workspaces',
          tag,
          response: { 200: z.object({ items: z.array(workspaceSchema) }) },
          errors: [401],
        }),
      },
      async (request) => ({ items: await workspaces.list(principalOf(request)) }),
    );

    app.get(
      '/admin/v1/workspaces/:id',
      {
        config,
        schema: operation({
          id: 'getWorkspace',
          summary: 'Get a workspace with its credit balance',
          tag,
          params: idParams,
          response: { 200: workspaceSchema },
          errors: [401, 404],
        }),
      },
      async (request) => workspaces.get(principalOf(request), request.params.id),
    );

    app.patch(
      '/admin/v1/workspaces/:id',
      {
        config,
        schema: operation({
          id: 'updateWorkspace',
          summary: 'Rename, suspend or reinstate a workspace',
          tag,
          params: idParams,
          body: patchWorkspaceBody,
          response: { 200: workspaceSchema },
          errors: [400, 401, 404, 413, 415],
        }),
      },
      async (request) => workspaces.update(principalOf(request), request.params.id, request.body),
    );

    app.post(
      '/admin/v1/workspaces/:id/credits',
      {
        config,
        schema: operation({
          id: 'adjustCredits',
          summary: "Grant or withdraw a workspace's credits",
          description: 'A withdrawal never takes the balance below zero (409 `CONFLICT`).',
          tag,
          params: idParams,
          body: creditsBody,
          response: { 200: z.object({ creditBalance: z.number().int() }) },
          errors: [400, 401, 404, 409, 413, 415],
        }),
      },
      async (request) => {
        const principal = principalOf(request);
        const { id } = await workspaces.get(principal, request.params.id);
        const { amount } = request.body;
        const reason = request.body.reason ?? (amount > 0 ? 'operator grant' : 'operator withdrawal');
        return { creditBalance: await credits.adjust(principal, id, amount, reason) };
      },
    );

    app.get(
      '/admin/v1/workspaces/:id/ledger',
      {
        config,
        schema: operation({
          id: 'getLedger',
          summary: "List a workspace's credit movements",
          description: 'Every grant, withdrawal, charge and refund, oldest first, with the balance after it.',
          tag,
          params: idParams,
          response: { 200: z.object({ items: z.array(ledgerEntrySchema) }) },
          errors: [401, 404],
        }),
      },
      async (request) => {
        const principal = principalOf(request);
        const { id } = await workspaces.get(principal, request.params.id);
        return { items: await credits.ledger(principal, id) };
      },
    );

    app.post(
      '/admin/v1/workspaces/:id/api-keys',
      {
        config,
        schema: operation({
          id: 'createApiKey',
          summary: 'Create an API key for a workspace',
          description: 'The answer holds the key itself (`key`); it is shown this once and never again.',
          tag,
          params: idParams,
          body: createKeyBody,
          response: { 201: createdKeySchema },
          errors: [400, 401, 404, 413, 415],
        }),
      },
      async (request, reply) => {
        const { name = 'API key', scopes } = request.body;
        return reply
          .status(201)
          .send(await apiKeys.create(principalOf(request), request.params.id, { name, scopes }));
      },
    );

    app.get(
      '/admin/v1/workspaces/:id/api-keys',
      {
        config,
        schema: operation({
          id: 'listApiKeys',
          summary: "List a workspace's API keys (masked)",
          tag,
          params: idParams,
          response: { 200: z.object({ items: z.array(apiKeySchema) }) },
          errors: [401, 404],
        }),
      },
      async (request) => {
        return { items: await apiKeys.list(principalOf(request), request.params.id) };
      },
    );

    app.delete(
      '/admin/v1/api-keys/:id',
      {
        config,
        schema: operation({
          id: 'revokeApiKey',
          summary: 'Revoke an API key',
          description: 'The key stops working at once.',
          tag,
          params: idParams,
          response: { 204: z.null() },
          errors: [401, 404],
        }),
      },
      async (request, reply) => {
        await apiKeys.revoke(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
