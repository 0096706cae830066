/**
 * Webhooks: the embed routes' template events and background renders' outcomes, written to a durable outbox in the template's
 * transaction (sink), delivered in the background, signed per Standard Webhooks and retried for a
 * day (dispatcher), and managed by the operator (service and routes, as a feature plugin).
 */
import type { Feature } from '../http/context.ts';
import { webhookRoutes, webhooksTag } from './routes.ts';

export { createWebhookBody, patchWebhookBody } from './routes.ts';

import type { WebhookService } from './service.ts';

export { afterFailure, type BackoffPolicy, DEFAULT_BACKOFF } from './backoff.ts';
export { type DispatcherOptions, WebhookDispatcher } from './dispatcher.ts';
export { WEBHOOK_TIMEOUT_MS, webhookPolicy } from './policy.ts';
export {
  type DeliveryRecord,
  WEBHOOK_EVENTS,
  type WebhookEventType,
  WebhookService,
  type WebhookView,
  type WebhookWithSecret,
} from './service.ts';
export { newSecret, sign, signedHeaders } from './signing.ts';
export {
  batchEventSink,
  renderEventSink,
  type WebhookPayload,
  webhookBody,
  webhookEventSink,
} from './sink.ts';

export function webhooksFeature(deps: { webhooks: WebhookService }): Feature {
  return { name: 'webhooks', openApiTag: webhooksTag, routes: webhookRoutes(deps.webhooks) };
}
