/** API keys: create (the key shown once, with a copy button), scopes, last used, revoke. */
import type { ApiKey } from '@platen/client';
import { useState } from 'preact/hooks';
import { call, consoleApi } from '../client.ts';
import { Choices, Empty, ErrorNote, SecretOnce, Show, useAction, useLoad, when } from '../ui.tsx';

const SCOPES: ApiKey['scopes'] = [
  'template:read',
  'template:write',
  'render:write',
  'asset:read',
  'asset:write',
];

/** The key's first characters and one ellipsis (the service's prefix may already end with one). */
const masked = (prefix: string) => `${prefix.replace(/(…|\.\.\.)+$/, '')}…`;

export function KeysScreen({ workspaceId }: { workspaceId: string }) {
  const keys = useLoad(
    () => call<{ items: ApiKey[] }>('GET', consoleApi(workspaceId, '/api-keys')),
    workspaceId,
  );
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(SCOPES);
  const [created, setCreated] = useState<string | null>(null);
  const [error, busy, act] = useAction();

  const create = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const key = await call<{ key: string }>('POST', consoleApi(workspaceId, '/api-keys'), {
        body: { name: name.trim() || 'API key', scopes },
      });
      setCreated(key.key);
      setName('');
      keys.reload();
    });
  };
  const revoke = (key: ApiKey) => {
    if (!window.confirm(`Revoke "${key.name}"? Requests with it will fail at once.`)) return;
    void act(async () => {
      await call('DELETE', consoleApi(workspaceId, `/api-keys/${key.id}`));
      keys.reload();
    });
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      {created && <SecretOnce title="New API key" value={created} onDone={() => setCreated(null)} />}
      <form class="console-card" onSubmit={create} aria-label="Create an API key">
        <h2>Create a key</h2>
        <label for="key-name">Name</label>
        <input
          id="key-name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          maxLength={200}
          placeholder="Production backend"
        />
        <Choices legend="Scopes" options={SCOPES} chosen={scopes} onChange={setScopes} />
        <button type="submit" class="primary" disabled={busy || scopes.length === 0}>
          Create key
        </button>
        <ErrorNote error={error} />
      </form>
      <Show loaded={keys} what="keys">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No keys yet. Create one to call the API from your backend.</Empty>
          ) : (
            <table class="console-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td>
                      <code>{masked(key.prefix)}</code>
                    </td>
                    <td>{key.scopes.join(', ')}</td>
                    <td>{when(key.createdAt)}</td>
                    <td>{when(key.lastUsedAt ?? null)}</td>
                    <td>
                      {key.revokedAt ? (
                        <span class="console-muted">Revoked {when(key.revokedAt)}</span>
                      ) : (
                        <button type="button" onClick={() => revoke(key)} aria-label={`Revoke ${key.name}`}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
    </section>
  );
}
