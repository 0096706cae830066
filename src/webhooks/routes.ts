/**
 * The operator API for webhooks (`/admin/v1`, PLATEN_ADMIN_TOKEN): subscribe a workspace's
 * embed events, list, read, change, delete, rotate the signing secret (shown once, like at
 * creation) and read the delivery log. Each handler is one call to the WebhookService.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import { WEBHOOK_EVENTS, type WebhookService } from './service.ts';

export const webhooksTag: OpenApiTag = {
  name: 'operator: webhooks',
  description:
    'Operator API (`Authorization: Bearer $PLATEN_ADMIN_TOKEN`): webhooks that receive the embed ' +
    "routes' template events, signed per Standard Webhooks, with their delivery log.",
};
const tag = webhooksTag;

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1)
  .max(WEBHOOK_EVENTS.length * 2)
  .describe('The event types to receive');
const urlSchema = z
  .string()
  .min(1)
  .max(2000)
  .describe('Where events are POSTed: https, on a public address (see PLATEN_ALLOW_PRIVATE_URLS)');

const webhookFields = {
  id: z.string(),
  workspaceId: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  createdAt: z.string(),
  updatedAt: z.string(),
};
const webhookSchema = z.object(webhookFields).meta({ id: 'Webhook' });
const webhookWithSecretSchema = z
  .object({
    ...webhookFields,
    secret: z.string().describe('`whsec_…`: the signing secret, shown in this response only'),
  })
  .meta({ id: 'WebhookWithSecret' });
const deliverySchema = z
  .object({
    id: z.string(),
    messageId: z.string().describe('The `webhook-id` header: the same for every attempt of one event'),
    eventType: z.string().describe('`template.create` or `template.update`'),
    attempt: z.number().int().describe('1 for the first attempt of that message'),
    statusCode: z.number().int().nullable().describe("The receiver's HTTP status; null when none came"),
    ok: z.boolean().describe('A 2xx answer'),
    latencyMs: z.number().int(),
    error: z.string().nullable().describe('Why it failed: an HTTP status, a timeout, a refused address…'),
    createdAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

const idParams = z.object({ id: z.string().max(200) });
export const createWebhookBody = z.object({ url: urlSchema, events: eventsSchema }).strict();
export const patchWebhookBody = z
  .object({ url: urlSchema.optional(), events: eventsSchema.optional() })
  .strict();
const deliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }).strict();

export function webhookRoutes(webhooks: WebhookService) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const config = { auth: 'operator' as const };

    app.post(
      '/admin/v1/workspaces/:id/webhooks',
      {
        config,
        schema: operation({
          id: 'createWebhook',
          summary: 'Subscribe a URL to the template events of a workspace',
          description:
            'The answer holds the signing secret (`secret`); it is shown this once. The URL must be ' +
            'https and resolve to a public address (400 `VALIDATION_FAILED` otherwise).',
          tag,
          params: idParams,
          body: createWebhookBody,
          response: { 201: webhookWithSecretSchema },
          errors: [400, 401, 404, 413, 415],
        }),
      },
      async (request, reply) =>
        reply.status(201).send(await webhooks.create(principalOf(request), request.params.id, request.body)),
    );

    app.get(
      '/admin/v1/workspaces/:id/webhooks',
      {
        config,
        schema: operation({
          id: 'listWebhooks',
          summary: 'List the webhooks of a workspace',
          tag,
          params: idParams,
          response: { 200: z.object({ items: z.array(webhookSchema) }) },
          errors: [401, 404],
        }),
      },
      async (request) => ({ items: await webhooks.list(principalOf(request), request.params.id) }),
    );

    app.get(
      '/admin/v1/webhooks/:id',
      {
        config,
        schema: operation({
          id: 'getWebhook',
          summary: 'Get a webhook (without its secret)',
          tag,
          params: idParams,
          response: { 200: webhookSchema },
          errors: [401, 404],
        }),
      },
      async (request) => webhooks.get(principalOf(request), request.params.id),
    );

    app.patch(
      '/admin/v1/webhooks/:id',
      {
        config,
        schema: operation({
          id: 'updateWebhook',
          summary: 'Change the URL or event types of a webhook',
          tag,
          params: idParams,
          body: patchWebhookBody,
          response: { 200: webhookSchema },
          errors: [400, 401, 404, 413, 415],
        }),
      },
      async (request) => webhooks.update(principalOf(request), request.params.id, request.body),
    );

    app.delete(
      '/admin/v1/webhooks/:id',
      {
        config,
        schema: operation({
          id: 'deleteWebhook',
          summary: 'Delete a webhook',
          description: 'Events it has not delivered yet are dropped.',
          tag,
          params: idParams,
          response: { 204: z.null() },
          errors: [401, 404],
        }),
      },
      async (request, reply) => {
        await webhooks.remove(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/admin/v1/webhooks/:id/rotate-secret',
      {
        config,
        schema: operation({
          id: 'rotateWebhookSecret',
          summary: 'Replace the signing secret of a webhook',
          description:
            'The answer holds the new secret, shown this once; every later attempt, retries of ' +
            'earlier events included, is signed with it.',
          tag,
          params: idParams,
          bodyRequired: false,
          response: { 200: webhookWithSecretSchema },
          errors: [401, 404],
        }),
      },
      async (request) => webhooks.rotateSecret(principalOf(request), request.params.id),
    );

    app.get(
      '/admin/v1/webhooks/:id/deliveries',
      {
        config,
        schema: operation({
          id: 'listWebhookDeliveries',
          summary: 'List the delivery attempts of a webhook, newest first',
          tag,
          params: idParams,
          querystring: deliveriesQuery,
          response: { 200: z.object({ items: z.array(deliverySchema) }) },
          errors: [400, 401, 404],
        }),
      },
      async (request) => ({
        items: await webhooks.deliveries(principalOf(request), request.params.id, request.query.limit),
      }),
    );

    app.post(
      '/admin/v1/webhooks/:id/messages/:messageId/redeliver',
      {
        config,
        schema: operation({
          id: 'redeliverWebhookMessage',
          summary: 'Send a message again',
          description:
            "Queues a delivered or failed message (a delivery's `messageId`) again, due now, with the " +
            'same `webhook-id`, signed with the current secret. 409 while it is still on its way.',
          tag,
          params: z.object({ id: z.string().max(200), messageId: z.string().max(200) }),
          bodyRequired: false,
          response: { 202: z.object({ queued: z.literal(true) }) },
          errors: [401, 404, 409],
        }),
      },
      async (request, reply) => {
        await webhooks.redeliver(principalOf(request), request.params.id, request.params.messageId);
        return reply.status(202).send({ queued: true });
      },
    );
  };
}
