/**
 * The console's own API (`/console/api`, a person's session): who is signed in, and for one
 * workspace the management a member may do there: API keys, webhooks, embeds, and a studio
 * session. Templates, assets, renders and usage go through the machine API (`/v1`) with the same
 * session; operators' workspaces, credits and users through the operator API. Every handler calls
 * the feature's service with the person's principal, confined to the workspace in the path.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createKeyBody } from '../admin/index.ts';
import { type ApiKeyService, auditActorOf, requirePrincipal } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import type { EmbedService } from '../embeds/index.ts';
import { createEmbedBody, updateEmbedBody } from '../embeds/schemas.ts';
import { createWebhookBody, patchWebhookBody, type WebhookService } from '../webhooks/index.ts';
import type { WorkspaceService } from '../workspaces/service.ts';

export interface ConsoleApiServices {
  apiKeys: ApiKeyService;
  webhooks: WebhookService;
  embeds: EmbedService;
  workspaces: WorkspaceService;
}

const id = z.string().max(200);
const inWorkspace = z.object({ workspaceId: id });
const withKey = inWorkspace.extend({ keyId: id });
const withWebhook = inWorkspace.extend({ webhookId: id });
const withMessage = withWebhook.extend({ messageId: id });
const withEmbed = inWorkspace.extend({ embedId: id });
const deliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }).strict();
const config = { auth: 'console' } as const;
const base = '/console/api/workspaces/:workspaceId';

export function consoleApiRoutes(services: ConsoleApiServices) {
  const { apiKeys, webhooks, embeds, workspaces } = services;
  return async (root: FastifyInstance): Promise<void> => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const principalOf = (request: { principal?: Parameters<typeof requirePrincipal>[0] }) =>
      requirePrincipal(request.principal);

    app.get(base, { config, schema: { hide: true, params: inWorkspace } }, async (request) =>
      workspaces.get(principalOf(request).workspaceId),
    );

    app.get(`${base}/api-keys`, { config, schema: { hide: true, params: inWorkspace } }, async (request) => ({
      items: await apiKeys.list(principalOf(request).workspaceId),
    }));
    app.post(
      `${base}/api-keys`,
      { config, schema: { hide: true, params: inWorkspace, body: createKeyBody } },
      async (request, reply) => {
        const principal = principalOf(request);
        const { name = 'API key', scopes } = request.body;
        const created = await apiKeys.create(
          principal.workspaceId,
          { name, scopes },
          auditActorOf(principal),
        );
        return reply.status(201).send(created);
      },
    );
    app.delete(
      `${base}/api-keys/:keyId`,
      { config, schema: { hide: true, params: withKey } },
      async (request, reply) => {
        const principal = principalOf(request);
        await apiKeys.revoke(request.params.keyId, auditActorOf(principal), principal.workspaceId);
        return reply.status(204).send();
      },
    );

    app.get(`${base}/webhooks`, { config, schema: { hide: true, params: inWorkspace } }, async (request) => ({
      items: await webhooks.list(principalOf(request).workspaceId),
    }));
    app.post(
      `${base}/webhooks`,
      { config, schema: { hide: true, params: inWorkspace, body: createWebhookBody } },
      async (request, reply) =>
        reply.status(201).send(await webhooks.create(principalOf(request).workspaceId, request.body)),
    );
    app.patch(
      `${base}/webhooks/:webhookId`,
      { config, schema: { hide: true, params: withWebhook, body: patchWebhookBody } },
      async (request) =>
        webhooks.update(request.params.webhookId, request.body, principalOf(request).workspaceId),
    );
    app.delete(
      `${base}/webhooks/:webhookId`,
      { config, schema: { hide: true, params: withWebhook } },
      async (request, reply) => {
        await webhooks.remove(request.params.webhookId, principalOf(request).workspaceId);
        return reply.status(204).send();
      },
    );
    app.post(
      `${base}/webhooks/:webhookId/rotate-secret`,
      { config, schema: { hide: true, params: withWebhook } },
      async (request) => {
        const principal = principalOf(request);
        return webhooks.rotateSecret(
          request.params.webhookId,
          auditActorOf(principal),
          principal.workspaceId,
        );
      },
    );
    app.get(
      `${base}/webhooks/:webhookId/deliveries`,
      { config, schema: { hide: true, params: withWebhook, querystring: deliveriesQuery } },
      async (request) => ({
        items: await webhooks.deliveries(
          request.params.webhookId,
          request.query.limit,
          principalOf(request).workspaceId,
        ),
      }),
    );
    app.post(
      `${base}/webhooks/:webhookId/messages/:messageId/redeliver`,
      { config, schema: { hide: true, params: withMessage } },
      async (request, reply) => {
        const { webhookId, messageId } = request.params;
        await webhooks.redeliver(webhookId, messageId, principalOf(request).workspaceId);
        return reply.status(202).send({ queued: true });
      },
    );

    app.get(`${base}/embeds`, { config, schema: { hide: true, params: inWorkspace } }, async (request) => ({
      items: await embeds.list(principalOf(request).workspaceId),
    }));
    app.post(
      `${base}/embeds`,
      { config, schema: { hide: true, params: inWorkspace, body: createEmbedBody } },
      async (request, reply) =>
        reply.status(201).send(await embeds.create(principalOf(request).workspaceId, request.body)),
    );
    app.patch(
      `${base}/embeds/:embedId`,
      { config, schema: { hide: true, params: withEmbed, body: updateEmbedBody } },
      async (request) =>
        embeds.update(request.params.embedId, request.body, principalOf(request).workspaceId),
    );
    app.delete(
      `${base}/embeds/:embedId`,
      { config, schema: { hide: true, params: withEmbed } },
      async (request, reply) => {
        await embeds.remove(request.params.embedId, principalOf(request).workspaceId);
        return reply.status(204).send();
      },
    );

    // The studio, opened in the console on the workspace's own console embed.
    app.post(
      `${base}/studio-session`,
      { config, schema: { hide: true, params: inWorkspace } },
      async (request, reply) => {
        const principal = principalOf(request);
        const workspace = await workspaces.get(principal.workspaceId);
        if (workspace.suspended) throw new AppError('SUBSCRIPTION_SUSPENDED');
        return reply.status(201).send(await embeds.consoleSession(principal.workspaceId));
      },
    );
  };
}
