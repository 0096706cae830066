/**
 * Webhooks: create (the secret shown once), rotate the secret, and the delivery log with "redeliver",
 * read again every few seconds while the screen is open, so new deliveries show without a click.
 */
import type { WebhookDelivery as Delivery, Webhook } from '@platen/client';
import { useState } from 'preact/hooks';
import { call, consoleApi } from '../client.ts';
import {
  Choices,
  CopyButton,
  Empty,
  ErrorNote,
  SecretOnce,
  Show,
  useAction,
  useEvery,
  useLoad,
  when,
} from '../ui.tsx';

/** How often an open delivery log is read again. */
const LOG_POLL_MS = 4000;

const EVENTS: Webhook['events'] = [
  'template.create',
  'template.update',
  'render.completed',
  'render.failed',
  'batch.completed',
];

export function WebhooksScreen({ workspaceId }: { workspaceId: string }) {
  const hooks = useLoad(
    () => call<{ items: Webhook[] }>('GET', consoleApi(workspaceId, '/webhooks')),
    workspaceId,
  );
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['template.create', 'template.update']);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [error, busy, act] = useAction();

  const create = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const created = await call<{ secret: string }>('POST', consoleApi(workspaceId, '/webhooks'), {
        body: { url: url.trim(), events },
      });
      setSecret({ title: 'Signing secret', value: created.secret });
      setUrl('');
      hooks.reload();
    });
  };

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      {secret && <SecretOnce title={secret.title} value={secret.value} onDone={() => setSecret(null)} />}
      <form class="console-card" onSubmit={create} aria-label="Create a webhook">
        <h2>Add an endpoint</h2>
        <label for="webhook-url">Endpoint URL</label>
        <input
          id="webhook-url"
          type="url"
          required
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
          placeholder="https://example.com/platen"
        />
        <Choices legend="Events" options={EVENTS} chosen={events} onChange={setEvents} />
        <button type="submit" class="primary" disabled={busy || events.length === 0}>
          Add webhook
        </button>
        <ErrorNote error={error} />
      </form>
      <Show loaded={hooks} what="webhooks">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No webhooks yet. Add an endpoint to hear about templates, renders and batches.</Empty>
          ) : (
            data.items.map((hook) => (
              <WebhookCard
                key={hook.id}
                workspaceId={workspaceId}
                hook={hook}
                onSecret={(value) => setSecret({ title: 'New signing secret', value })}
                onRemoved={hooks.reload}
              />
            ))
          )
        }
      </Show>
    </section>
  );
}

function WebhookCard(props: {
  workspaceId: string;
  hook: Webhook;
  onSecret(secret: string): void;
  onRemoved(): void;
}) {
  const { workspaceId, hook } = props;
  const path = consoleApi(workspaceId, `/webhooks/${hook.id}`);
  const deliveries = useLoad(
    () => call<{ items: Delivery[] }>('GET', `${path}/deliveries?limit=20`),
    hook.id,
  );
  useEvery(LOG_POLL_MS, deliveries.reload);
  const [error, busy, act] = useAction();

  const rotate = () =>
    act(async () => {
      if (!window.confirm('Rotate the secret? Deliveries are signed with the new one from now on.')) return;
      props.onSecret((await call<{ secret: string }>('POST', `${path}/rotate-secret`)).secret);
    });
  const remove = () =>
    act(async () => {
      if (!window.confirm(`Delete the webhook to ${hook.url}?`)) return;
      await call('DELETE', path);
      props.onRemoved();
    });
  const redeliver = (delivery: Delivery) =>
    act(async () => {
      await call('POST', `${path}/messages/${delivery.messageId}/redeliver`);
      // The new attempt is logged once it is made: read now, and again a moment later.
      deliveries.reload();
      setTimeout(deliveries.reload, 1500);
    });

  return (
    <article class="console-card" aria-label={`Webhook ${hook.url}`}>
      <div class="console-row">
        <h2 class="console-grow">
          <code>{hook.url}</code>
        </h2>
        <button type="button" onClick={() => void rotate()} disabled={busy}>
          Rotate secret
        </button>
        <button type="button" onClick={() => void remove()} disabled={busy}>
          Delete
        </button>
      </div>
      <p class="console-muted">Events: {hook.events.join(', ')}</p>
      <ErrorNote error={error} />
      <h3>Delivery log</h3>
      <button type="button" onClick={deliveries.reload}>
        Refresh log
      </button>
      <Show loaded={deliveries} what="deliveries">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No deliveries yet.</Empty>
          ) : (
            <table class="console-table" aria-label="Deliveries">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Status</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Message</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((d) => (
                  <tr key={d.id}>
                    <td>{when(d.createdAt)}</td>
                    <td>{d.eventType}</td>
                    <td>{d.attempt}</td>
                    <td class={d.ok ? 'console-ok' : 'console-bad'}>
                      {d.statusCode ?? '—'} {d.ok ? 'delivered' : (d.error ?? 'failed')}
                    </td>
                    <td>{d.latencyMs} ms</td>
                    <td>
                      <code>{d.messageId}</code> <CopyButton text={d.messageId} label="Copy message id" />
                    </td>
                    <td>
                      <button type="button" onClick={() => void redeliver(d)} disabled={busy}>
                        Redeliver
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
    </article>
  );
}
