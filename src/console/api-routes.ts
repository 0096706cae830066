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
import { type ApiKeyService, type Principal, principalOf } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import type { EmbedService } from '../embeds/index.ts';
import { createEmbedBody, updateEmbedBody } from '../embeds/schemas.ts';
import { createWebhookBody, patchWebhookBody, type WebhookService } from '../webhooks/index.ts';
import type { WorkspaceService } from '../workspaces/service.ts';
import type { ConsoleSessions } from './session-auth.ts';

export interface ConsoleApiServices {
  apiKeys: ApiKeyService;
  webhooks: WebhookService;
  embeds: EmbedService;
  workspaces: WorkspaceService;
  sessions: ConsoleSessions;
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
  const { apiKeys, webhooks, embeds, workspaces, sessions } = services;
  return async (root: FastifyInstance): Promise<void> => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    /** The principal and the workspace in the path it was confined to by the authenticator. */
    const within = (request: { principal?: Principal }) => {
      const principal = principalOf(request);
      return { principal, workspaceId: principal.workspaceId };
    };

    app.get(base, { config, schema: { hide: true, params: inWorkspace } }, async (request) =>
      workspaces.mine(principalOf(request)),
    );

    app.get(`${base}/api-keys`, { config, schema: { hide: true, params: inWorkspace } }, async (request) => {
      const { principal, workspaceId } = within(request);
      return { items: await apiKeys.list(principal, workspaceId) };
    });
    app.post(
      `${base}/api-keys`,
      { config, schema: { hide: true, params: inWorkspace, body: createKeyBody } },
      async (request, reply) => {
        const { principal, workspaceId } = within(request);
        const { name = 'API key', scopes } = request.body;
        return reply.status(201).send(await apiKeys.create(principal, workspaceId, { name, scopes }));
      },
    );
    app.delete(
      `${base}/api-keys/:keyId`,
      { config, schema: { hide: true, params: withKey } },
      async (request, reply) => {
        await apiKeys.revoke(principalOf(request), request.params.keyId);
        return reply.status(204).send();
      },
    );

    app.get(`${base}/webhooks`, { config, schema: { hide: true, params: inWorkspace } }, async (request) => {
      const { principal, workspaceId } = within(request);
      return { items: await webhooks.list(principal, workspaceId) };
    });
    app.post(
      `${base}/webhooks`,
      { config, schema: { hide: true, params: inWorkspace, body: createWebhookBody } },
      async (request, reply) => {
        const { principal, workspaceId } = within(request);
        return reply.status(201).send(await webhooks.create(principal, workspaceId, request.body));
      },
    );
    app.patch(
      `${base}/webhooks/:webhookId`,
      { config, schema: { hide: true, params: withWebhook, body: patchWebhookBody } },
      async (request) => webhooks.update(principalOf(request), request.params.webhookId, request.body),
    );
    app.delete(
      `${base}/webhooks/:webhookId`,
      { config, schema: { hide: true, params: withWebhook } },
      async (request, reply) => {
        await webhooks.remove(principalOf(request), request.params.webhookId);
        return reply.status(204).send();
      },
    );
    app.post(
      `${base}/webhooks/:webhookId/rotate-secret`,
      { config, schema: { hide: true, params: withWebhook } },
      async (request) => webhooks.rotateSecret(principalOf(request), request.params.webhookId),
    );
    app.get(
      `${base}/webhooks/:webhookId/deliveries`,
      { config, schema: { hide: true, params: withWebhook, querystring: deliveriesQuery } },
      async (request) => ({
        items: await webhooks.deliveries(principalOf(request), request.params.webhookId, request.query.limit),
      }),
    );
    app.post(
      `${base}/webhooks/:webhookId/messages/:messageId/redeliver`,
      { config, schema: { hide: true, params: withMessage } },
      async (request, reply) => {
        const { webhookId, messageId } = request.params;
        await webhooks.redeliver(principalOf(request), webhookId, messageId);
        return reply.status(202).send({ queued: true });
      },
    );

    app.get(`${base}/embeds`, { config, schema: { hide: true, params: inWorkspace } }, async (request) => {
      const { principal, workspaceId } = within(request);
      return { items: await embeds.list(principal, workspaceId) };
    });
    app.post(
      `${base}/embeds`,
      { config, schema: { hide: true, params: inWorkspace, body: createEmbedBody } },
      async (request, reply) => {
        const { principal, workspaceId } = within(request);
        return reply.status(201).send(await embeds.create(principal, workspaceId, request.body));
      },
    );
    app.patch(
      `${base}/embeds/:embedId`,
      { config, schema: { hide: true, params: withEmbed, body: updateEmbedBody } },
      async (request) => embeds.update(principalOf(request), request.params.embedId, request.body),
    );
    app.delete(
      `${base}/embeds/:embedId`,
      { config, schema: { hide: true, params: withEmbed } },
      async (request, reply) => {
        await embeds.remove(principalOf(request), request.params.embedId);
        return reply.status(204).send();
      },
    );

    // The studio, opened in the console on the workspace's own console embed, for as long as the
    // person's console session lives (signing out ends it).
    app.post(
      `${base}/studio-session`,
      { config, schema: { hide: true, params: inWorkspace } },
      async (request, reply) => {
        const person = await sessions.person(request, true);
        if (!person) throw new AppError('UNAUTHORIZED', 'Sign in to the console first.');
        return reply.status(201).send(await embeds.consoleSession(principalOf(request), person.sessionId));
      },
    );
  };
}
