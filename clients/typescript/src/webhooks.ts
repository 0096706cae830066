/**
 * Webhook events (docs/api.md, Webhooks): their payloads, as the document's `webhooks` section types
 * them, and `verifyWebhook`, which checks a delivery's Standard Webhooks signature and timestamp
 * with the `standardwebhooks` library before anything reads the body. Verify the raw body exactly as
 * it arrived: parsing and re-serialising JSON changes the bytes that were signed.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { Schemas } from './api-types.ts';
import type { webhooks } from './openapi.ts';

export { WebhookVerificationError };

export type WebhookEventType = Schemas['Webhook']['events'][number];

/** The body Platen POSTs for an event type. */
type EventBody<Type extends WebhookEventType> =
  webhooks[Type]['post']['requestBody']['content']['application/json'];
type RenderJob = Schemas['RenderJob'];

/** A template created or saved through an embed, by end-user `userId` of embed `embedId`. */
export type TemplateEvent = EventBody<'template.create'> | EventBody<'template.update'>;
/** A background render is done: `status` is `done` and `result` is there, as the render route answers it. */
export type RenderCompletedEvent = EventBody<'render.completed'> & {
  data: { render: { status: 'done'; result: NonNullable<RenderJob['result']> } };
};
/** A background render failed and was refunded: `error` as the render route would have answered. */
export type RenderFailedEvent = EventBody<'render.failed'> & {
  data: { render: { status: 'failed'; error: NonNullable<RenderJob['error']> } };
};
/** A batch has no pending row (or was cancelled): its summary, without the manifest. */
export type BatchCompletedEvent = EventBody<'batch.completed'>;

export type WebhookEvent = TemplateEvent | RenderCompletedEvent | RenderFailedEvent | BatchCompletedEvent;

/** Request headers as Fetch (`Headers`), Node (`IncomingHttpHeaders`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const plain: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      plain[name] = value;
    });
    return plain;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') plain[name.toLowerCase()] = value;
    // A repeated header: Standard Webhooks separates several signatures with spaces.
    else if (Array.isArray(value)) plain[name.toLowerCase()] = value.join(' ');
  }
  return plain;
}

/**
 * Verifies a delivery and answers its event. Throws `WebhookVerificationError` when a header is
 * missing, the signature does not match `secret` (`whsec_…`, from creating or rotating the webhook)
 * or the timestamp is more than five minutes away from now (a replay); the body is then untrusted.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: string): WebhookEvent {
  const event = new Webhook(secret).verify(rawBody, plainHeaders(headers));
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string')
    throw new WebhookVerificationError('The body is not a Platen event');
  return event as WebhookEvent;
}
