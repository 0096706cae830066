/** Users (operators): who signs in, operators and members with their workspaces; create one. */
import type { User } from '@platen/client';
import { useState } from 'preact/hooks';
import { call, type Workspace } from '../client.ts';
import { Empty, ErrorNote, Show, useAction, useLoad, when } from '../ui.tsx';

export function UsersScreen({ workspaces }: { workspaces: Workspace[] }) {
  const users = useLoad(() => call<{ items: User[] }>('GET', '/admin/v1/users'), 'users');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [operator, setOperator] = useState(false);
  const [member, setMember] = useState<string[]>([]);
  const [error, busy, act] = useAction();
  const names = new Map(workspaces.map((w) => [w.id, w.name]));
  const create = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await call('POST', '/admin/v1/users', { body: { email, password, operator, workspaceIds: member } });
      setEmail('');
      setPassword('');
      users.reload();
    });
  };
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      <form class="console-card" onSubmit={create} aria-label="Create a user">
        <h2>Add a person</h2>
        <label for="user-email">Email</label>
        <input
          id="user-email"
          type="email"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="user-password">Password (at least 8 characters)</label>
        <input
          id="user-password"
          type="password"
          minLength={8}
          required
          autoComplete="new-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <label class="console-check">
          <input type="checkbox" checked={operator} onChange={(e) => setOperator(e.currentTarget.checked)} />{' '}
          Operator (manages everything)
        </label>
        <fieldset>
          <legend>Member of</legend>
          {workspaces.map((w) => (
            <label key={w.id} class="console-check">
              <input
                type="checkbox"
                checked={member.includes(w.id)}
                onChange={(e) =>
                  setMember(e.currentTarget.checked ? [...member, w.id] : member.filter((id) => id !== w.id))
                }
              />{' '}
              {w.name}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary" disabled={busy}>
          Add user
        </button>
        <ErrorNote error={error} />
      </form>
      <Show loaded={users} what="users">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No users.</Empty>
          ) : (
            <table class="console-table">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Workspaces</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((u) => (
                  <tr key={u.id}>
                    <td>{u.email}</td>
                    <td>{u.operator ? 'Operator' : 'Member'}</td>
                    <td>{u.workspaceIds.map((id) => names.get(id) ?? id).join(', ') || '—'}</td>
                    <td>{when(u.createdAt)}</td>
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
