/**
 * Operator API: webhook subscriptions of a workspace, their signing secrets (shown on create and
 * rotate only), the delivery log, and sending a message again.
 */
import type { JsonAnswer, JsonBody, QueryOf, Schemas } from '../api-types.ts';
import { type ApiClient, call } from '../transport.ts';

export type Webhook = Schemas['Webhook'];
/** A webhook with its signing secret (`whsec_…`): shown in this answer only. */
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type CreateWebhook = JsonBody<'createWebhook'>;
export type UpdateWebhook = JsonBody<'updateWebhook'>;

export class AdminWebhooks {
  constructor(private readonly api: ApiClient) {}

  list(workspaceId: string): Promise<JsonAnswer<'listWebhooks'>> {
    return call(
      this.api.GET('/admin/v1/workspaces/{id}/webhooks', { params: { path: { id: workspaceId } } }),
    );
  }

  /** `url` must be https and public (unless the service allows private URLs). */
  create(workspaceId: string, body: CreateWebhook): Promise<WebhookWithSecret> {
    return call(
      this.api.POST('/admin/v1/workspaces/{id}/webhooks', { params: { path: { id: workspaceId } }, body }),
    );
  }

  get(id: string): Promise<Webhook> {
    return call(this.api.GET('/admin/v1/webhooks/{id}', { params: { path: { id } } }));
  }

  update(id: string, body: UpdateWebhook): Promise<Webhook> {
    return call(this.api.PATCH('/admin/v1/webhooks/{id}', { params: { path: { id } }, body }));
  }

  /** Events it has not delivered yet are dropped. */
  async delete(id: string): Promise<void> {
    await call(this.api.DELETE('/admin/v1/webhooks/{id}', { params: { path: { id } } }));
  }

  /** A new secret, shown once; the old one stops signing at once (retries included). */
  rotateSecret(id: string): Promise<WebhookWithSecret> {
    return call(this.api.POST('/admin/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } }));
  }

  /** The latest delivery attempts, newest first. */
  deliveries(
    id: string,
    query: QueryOf<'listWebhookDeliveries'> = {},
  ): Promise<JsonAnswer<'listWebhookDeliveries'>> {
    return call(this.api.GET('/admin/v1/webhooks/{id}/deliveries', { params: { path: { id }, query } }));
  }

  /**
   * Sends a message (a delivery's `messageId`) again now, with the same `webhook-id`, signed with
   * the current secret; `CONFLICT` while it is still on its way.
   */
  redeliver(id: string, messageId: string): Promise<JsonAnswer<'redeliverWebhookMessage', 202>> {
    return call(
      this.api.POST('/admin/v1/webhooks/{id}/messages/{messageId}/redeliver', {
        params: { path: { id, messageId } },
      }),
    );
  }
}
