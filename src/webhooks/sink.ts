/**
 * The templates' event sink: turns a TemplateEvent into the exact body every subscribed webhook
 * will receive (`{type, timestamp, data: {template, embedId, userId}}`, built once, so retries
 * and restarts send the same bytes) and writes it to the outbox inside the template's transaction.
 */
import type { Store } from '../store/index.ts';
import type { TemplateEvent, TemplateEventSink, TemplateRecord } from '../templates/index.ts';

export interface WebhookPayload {
  type: TemplateEvent['type'];
  /** When the change happened (ISO 8601). */
  timestamp: string;
  data: { template: TemplateRecord; embedId: string; userId: string | null };
}

/** Exactly the contract's template record, whatever else the event carries. */
function recordOf(t: TemplateRecord): TemplateRecord {
  return {
    id: t.id,
    name: t.name,
    width: t.width,
    height: t.height,
    pageCount: t.pageCount,
    revision: t.revision,
    shared: t.shared,
    ownerUserId: t.ownerUserId,
    thumbnailUrl: t.thumbnailUrl,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export function webhookBody(event: TemplateEvent, at: Date = new Date()): string {
  const payload: WebhookPayload = {
    type: event.type,
    timestamp: at.toISOString(),
    data: { template: recordOf(event.template), embedId: event.embedId, userId: event.userId },
  };
  return JSON.stringify(payload);
}

export function webhookEventSink(store: Store): TemplateEventSink {
  return async (trx, event) => {
    await store.webhooks.writeEvent(trx, {
      workspaceId: event.workspaceId,
      type: event.type,
      payload: webhookBody(event),
    });
  };
}
