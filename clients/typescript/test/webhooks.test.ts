/**
 * `verifyWebhook` against real deliveries: the server posts `render.completed`, `batch.completed`
 * and `template.create` to a loopback receiver, and the SDK verifies each (headers as Node gives
 * them or as a Fetch `Headers`) and answers the typed event. A changed body, a changed timestamp,
 * a stale timestamp (a replay, even correctly signed), another secret or a missing header are
 * refused with `WebhookVerificationError`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ReceivedRequest,
  type Receiver,
  startReceiver,
} from '../../../src/webhooks/testing/receiver.ts';
import { startTestServer, type TestServer } from '../../../test/harness/server.ts';
import {
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventType,
  WebhookVerificationError,
} from '../src/index.ts';
import { caught, sdkWorkspace } from './setup.ts';

let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  server = await startTestServer('sqlite');
  receiver = await startReceiver(() => ({ status: 200 }));
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

async function delivered(path: string, count: number): Promise<ReceivedRequest[]> {
  await receiver.waitFor(() => receiver.delivered(path).size >= count, 20_000);
  return [...receiver.delivered(path).values()];
}

describe('verifyWebhook', () => {
  it('every event type the document names has a payload type', () => {
    expectTypeOf<Exclude<WebhookEventType, WebhookEvent['type']>>().toEqualTypeOf<never>();
  });

  it('verifies real render and batch deliveries and answers their typed events', async () => {
    const { admin, platen, workspaceId, templateId } = await sdkWorkspace(server, 10);
    const hook = await admin.webhooks.create(workspaceId, {
      url: receiver.url('/jobs'),
      events: ['render.completed', 'batch.completed'],
    });
    const done = await platen.renderAndWait(templateId, { format: 'png' }, { pollIntervalMs: 50 });
    const doneId = done.id;
    const batch = await platen.batches.create(templateId, { rows: [{ headline: 'A' }] });
    await platen.batches.wait(batch.id, { pollIntervalMs: 50 });
    // The batch's row is a background render too: its own render.completed, then batch.completed.
    const requests = await delivered('/jobs', 3);
    const events = requests.map((request) => {
      // As Node's http server (and Express) hand them over.
      const headers: IncomingHttpHeaders = request.headers;
      return verifyWebhook(hook.secret, headers, request.body);
    });
    expect(events.map((event) => event.type).sort()).toEqual([
      'batch.completed',
      'render.completed',
      'render.completed',
    ]);
    const rendered = events.find(
      (event) => event.type === 'render.completed' && event.data.render.id === doneId,
    );
    if (rendered?.type !== 'render.completed') throw new Error('no render.completed event');
    expect(rendered.data.render).toMatchObject({ status: 'done', templateId, format: 'png' });
    expect('url' in rendered.data.render.result && rendered.data.render.result.url).toMatch(
      /\/files\/renders\//,
    );
    const finished = events.find((event) => event.type === 'batch.completed');
    if (finished?.type !== 'batch.completed') throw new Error('no batch.completed event');
    expect(finished.data.batch).toMatchObject({ id: batch.id, status: 'completed', progress: { done: 1 } });
    expect(finished.data.batch).not.toHaveProperty('rows');
  });

  it('verifies a template event with Fetch Headers, and refuses anything changed or replayed', async () => {
    const { admin, platen, workspaceId } = await sdkWorkspace(server, 0);
    const hook = await admin.webhooks.create(workspaceId, {
      url: receiver.url('/templates'),
      events: ['template.create'],
    });
    const embed = await admin.embeds.create(workspaceId, {});
    const session = await platen.embeds.createSession(embed.id, { userId: 'user-42' });
    const created = await fetch(`${server.base}/v1/embed/${embed.id}/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the studio', width: 100, height: 100 }),
    });
    expect(created.status).toBe(201);
    const [request] = await delivered('/templates', 1);
    if (!request) throw new Error('no delivery');
    const headers = new Headers(request.headers);
    const event = verifyWebhook(hook.secret, headers, request.body);
    expect(event).toMatchObject({
      type: 'template.create',
      data: { template: { name: 'From the studio' }, embedId: embed.id, userId: 'user-42' },
    });

    const refused = async (secret: string, headers: Record<string, string>, body: string) => {
      const error = await caught((async () => verifyWebhook(secret, headers, body))());
      expect(error).toBeInstanceOf(WebhookVerificationError);
      return (error as Error).message;
    };
    const sent = request.headers;
    const stamp = Number(sent['webhook-timestamp']);
    await refused(hook.secret, sent, request.body.replace('From the studio', 'From an attacker'));
    await refused(hook.secret, { ...sent, 'webhook-timestamp': String(stamp + 1) }, request.body);
    const other = await admin.webhooks.create(workspaceId, {
      url: receiver.url('/other'),
      events: ['template.create'],
    });
    await refused(other.secret, sent, request.body);
    const { 'webhook-signature': _signature, ...unsigned } = sent;
    expect(await refused(hook.secret, unsigned, request.body)).toMatch(/missing/i);
    // Correctly signed, but ten minutes old: a replay.
    const old = new Date((stamp - 600) * 1000);
    const replayed = {
      ...sent,
      'webhook-timestamp': String(stamp - 600),
      'webhook-signature': new Webhook(hook.secret).sign(request.messageId, old, request.body),
    };
    expect(await refused(hook.secret, replayed, request.body)).toMatch(/too old/i);
  });
});
