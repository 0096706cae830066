/** Workspaces (operators): balance, suspend and resume, grant credits, create. */
import { useState } from 'preact/hooks';
import { call, type Workspace } from '../client.ts';
import { workspaceHref } from '../router.ts';
import { Empty, ErrorNote, Show, useAction, useLoad } from '../ui.tsx';

export function WorkspacesScreen({ onChange }: { onChange(): void }) {
  const list = useLoad(() => call<{ items: Workspace[] }>('GET', '/admin/v1/workspaces'), 'workspaces');
  const [name, setName] = useState('');
  const [credits, setCredits] = useState('100');
  const [error, busy, act] = useAction();
  const changed = () => {
    list.reload();
    onChange();
  };
  const create = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await call('POST', '/admin/v1/workspaces', {
        body: { name: name.trim(), credits: Number(credits) || 0 },
      });
      setName('');
      changed();
    });
  };
  return (
    <section aria-labelledby="workspaces-title">
      <h1 id="workspaces-title">Workspaces</h1>
      <form class="console-card console-inline" onSubmit={create} aria-label="Create a workspace">
        <div>
          <label for="ws-name">Name</label>
          <input
            id="ws-name"
            required
            maxLength={200}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div>
          <label for="ws-credits">Starting credits</label>
          <input
            id="ws-credits"
            type="number"
            min={0}
            value={credits}
            onInput={(e) => setCredits(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="primary" disabled={busy}>
          Create workspace
        </button>
      </form>
      <ErrorNote error={error} />
      <Show loaded={list} what="workspaces">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No workspaces yet.</Empty>
          ) : (
            <table class="console-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Balance</th>
                  <th scope="col">State</th>
                  <th scope="col">Grant credits</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((w) => (
                  <WorkspaceRow key={w.id} workspace={w} busy={busy} act={act} onChange={changed} />
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
    </section>
  );
}

function WorkspaceRow(props: {
  workspace: Workspace;
  busy: boolean;
  act(run: () => Promise<void>): Promise<boolean>;
  onChange(): void;
}) {
  const w = props.workspace;
  const [amount, setAmount] = useState('');
  const grant = (event: Event) => {
    event.preventDefault();
    void props.act(async () => {
      await call('POST', `/admin/v1/workspaces/${w.id}/credits`, {
        body: { amount: Number(amount), reason: 'granted in the console' },
      });
      setAmount('');
      props.onChange();
    });
  };
  const suspend = () =>
    props.act(async () => {
      await call('PATCH', `/admin/v1/workspaces/${w.id}`, { body: { suspended: !w.suspended } });
      props.onChange();
    });
  return (
    <tr>
      <td>
        <a href={workspaceHref(w.id, 'templates')}>{w.name}</a>
        <br />
        <code class="console-muted">{w.id}</code>
      </td>
      <td data-testid={`balance-${w.id}`}>{w.creditBalance}</td>
      <td class={w.suspended ? 'console-bad' : 'console-ok'}>{w.suspended ? 'Suspended' : 'Active'}</td>
      <td>
        <form class="console-inline" onSubmit={grant} aria-label={`Grant credits to ${w.name}`}>
          <label class="visually-hidden" for={`grant-${w.id}`}>
            Credits to grant to {w.name}
          </label>
          <input
            id={`grant-${w.id}`}
            type="number"
            required
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value)}
          />
          <button type="submit" disabled={props.busy}>
            Grant
          </button>
        </form>
      </td>
      <td>
        <button type="button" onClick={() => void suspend()} disabled={props.busy}>
          {w.suspended ? `Resume ${w.name}` : `Suspend ${w.name}`}
        </button>
      </td>
    </tr>
  );
}
