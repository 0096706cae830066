/**
 * The event sinks. Templates': turns a TemplateEvent into the exact body every subscribed webhook
 * will receive (`{type, timestamp, data: {template, embedId, userId}}`, built once, so retries
 * and restarts send the same bytes) and writes it to the outbox inside the template's transaction.
 */
import type { Transaction } from 'kysely';
import type { Store } from '../store/index.ts';
import type { Database } from '../store/schema.ts';
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

/** What a background render's event names: the render, as `GET /v1/renders/{id}` would show it. */
export interface RenderEventFacts {
  id: string;
  workspaceId: string;
  templateId: string;
  format: string;
  createdAt: string;
}

/**
 * The background renders' event sink: `render.completed` (with the result) or `render.failed` (with
 * the error), written to the outbox inside the transaction that records the outcome.
 */
export function renderEventSink(store: Store) {
  return (render: RenderEventFacts) => {
    const write = (trx: Transaction<Database>, type: 'render.completed' | 'render.failed', outcome: object) =>
      store.webhooks
        .writeEvent(trx, {
          workspaceId: render.workspaceId,
          type,
          payload: JSON.stringify({
            type,
            timestamp: new Date().toISOString(),
            data: {
              render: {
                id: render.id,
                status: type === 'render.completed' ? 'done' : 'failed',
                templateId: render.templateId,
                format: render.format,
                createdAt: render.createdAt,
                ...outcome,
              },
            },
          }),
        })
        .then(() => {});
    return {
      completed: (trx: Transaction<Database>, result: unknown) => write(trx, 'render.completed', { result }),
      failed: (trx: Transaction<Database>, error: unknown) => write(trx, 'render.failed', { error }),
    };
  };
}

/** `batch.completed` (completed or cancelled): the batch's summary, written with its transition. */
export function batchEventSink(store: Store) {
  return async (
    trx: Transaction<Database>,
    batch: { id: string } & Record<string, unknown>,
  ): Promise<void> => {
    const workspace = await trx
      .selectFrom('batches')
      .select('workspace_id')
      .where('id', '=', batch.id)
      .executeTakeFirst();
    if (!workspace) return;
    await store.webhooks.writeEvent(trx, {
      workspaceId: workspace.workspace_id,
      type: 'batch.completed',
      payload: JSON.stringify({
        type: 'batch.completed',
        timestamp: new Date().toISOString(),
        data: { batch },
      }),
    });
  };
}
