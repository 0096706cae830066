/**
 * Users (operators): who signs in, operators and members with their workspaces, and what can be
 * done to each: disable or enable, promote or demote, edit memberships, delete, issue a one-time
 * password-reset link, unlock a sign-in locked by failed attempts. The signed-in person's own row
 * is marked "you"; a change to it reloads the session (a demoted operator loses these screens).
 */

import type { PasswordResetLink, User, UserChange } from '@platen/client';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, type Workspace } from '../client.ts';
import { Empty, ErrorNote, SecretOnce, Show, useAction, useLoad, when } from '../ui.tsx';

const userPath = (id: string, rest = '') => `/admin/v1/users/${encodeURIComponent(id)}${rest}`;

/** How a refused change reads: the service words a 409 (no enabled operator would be left). */
const CHANGE_ERRORS: Record<string, string | null> = {
  CONFLICT: null,
  VALIDATION_FAILED: 'A member needs at least one workspace: edit their memberships first.',
};

const lockedNow = (user: User) => user.lockedUntil !== null && Date.parse(user.lockedUntil) > Date.now();

export function UsersScreen({ me, onSelfChange }: { me: string; onSelfChange(): void }) {
  const users = useLoad(() => call<{ items: User[] }>('GET', '/admin/v1/users'), 'users');
  const workspaces = useLoad(() => call<{ items: Workspace[] }>('GET', '/admin/v1/workspaces'), 'workspaces');
  const all = workspaces.data?.items ?? [];
  const names = new Map(all.map((w) => [w.id, w.name]));
  const [editing, setEditing] = useState<string | null>(null);
  const [reset, setReset] = useState<{ userId: string; email: string; link: PasswordResetLink } | null>(null);
  const [error, busy, act] = useAction();

  const changed = (user: User) => {
    users.reload();
    if (user.id === me) onSelfChange();
  };
  const change = (user: User, body: UserChange, question?: string) => {
    if (question && !window.confirm(question)) return Promise.resolve(false);
    return act(async () => {
      await call<User>('PATCH', userPath(user.id), { body });
      changed(user);
    });
  };
  const actions: RowActions = {
    toggleDisabled: (user) =>
      void change(
        user,
        { disabled: !user.disabled },
        user.disabled
          ? undefined
          : user.id === me
            ? 'Disable your own account? You will not be able to sign in again until an operator enables it.'
            : `Disable ${user.email}? They will not be able to sign in until enabled again.`,
      ),
    toggleOperator: (user) =>
      void change(
        user,
        { operator: !user.operator },
        user.operator
          ? user.id === me
            ? 'Demote yourself? You will lose the operator screens (workspaces, users, audit log).'
            : `Demote ${user.email}? They will keep only the workspaces they are a member of.`
          : `Make ${user.email} an operator? Operators manage every workspace and every person.`,
      ),
    editMemberships: (user) => setEditing(editing === user.id ? null : user.id),
    issueReset: (user) =>
      void act(async () => {
        const link = await call<PasswordResetLink>('POST', userPath(user.id, '/password-reset'));
        setReset({ userId: user.id, email: user.email, link });
      }),
    unlock: (user) =>
      void act(async () => {
        await call('POST', userPath(user.id, '/unlock'));
        users.reload();
      }),
    remove: (user) => {
      const question =
        user.id === me
          ? 'Delete your own account? You will be signed out, and this cannot be undone.'
          : `Delete ${user.email}? They will not be able to sign in again; this cannot be undone.`;
      if (!window.confirm(question)) return;
      void act(async () => {
        await call('DELETE', userPath(user.id));
        if (editing === user.id) setEditing(null);
        if (reset?.userId === user.id) setReset(null);
        changed(user);
      });
    },
  };

  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      <CreateUser workspaces={all} onCreated={users.reload} />
      <ErrorNote error={error} plain={CHANGE_ERRORS} />
      <Show loaded={users} what="users">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No users.</Empty>
          ) : (
            <table class="console-table" aria-label="People">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Workspaces</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((u) => (
                  <UserRows
                    key={u.id}
                    user={u}
                    me={u.id === me}
                    names={names}
                    busy={busy}
                    actions={actions}
                    editor={
                      editing === u.id && (
                        <Memberships
                          user={u}
                          workspaces={all}
                          busy={busy}
                          onSave={async (workspaceIds) => {
                            if (await change(u, { workspaceIds })) setEditing(null);
                          }}
                          onCancel={() => setEditing(null)}
                        />
                      )
                    }
                    resetLink={
                      reset?.userId === u.id && (
                        <SecretOnce
                          title={`Password-reset link for ${reset.email}`}
                          value={reset.link.url}
                          onDone={() => setReset(null)}
                        >
                          <p>
                            It works once, until {when(reset.link.expiresAt)}: send it to {reset.email}, who
                            opens it to choose a new password.
                          </p>
                        </SecretOnce>
                      )
                    }
                  />
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
    </section>
  );
}

interface RowActions {
  toggleDisabled(user: User): void;
  toggleOperator(user: User): void;
  editMemberships(user: User): void;
  issueReset(user: User): void;
  unlock(user: User): void;
  remove(user: User): void;
}

/** A person's row, and under it the memberships editor or the reset link when open. */
function UserRows(props: {
  user: User;
  me: boolean;
  names: Map<string, string>;
  busy: boolean;
  actions: RowActions;
  editor: ComponentChildren;
  resetLink: ComponentChildren;
}) {
  const { user: u, busy, actions } = props;
  const locked = lockedNow(u);
  // Each button says what it does; the row's email, which it acts on, is its description.
  const emailId = `user-${u.id}-email`;
  return (
    <>
      <tr>
        <td id={emailId}>
          {u.email}
          {props.me && (
            <>
              {' '}
              <span class="console-tag">you</span>
            </>
          )}
        </td>
        <td>{u.operator ? 'Operator' : 'Member'}</td>
        <td>
          {u.disabled ? (
            <span class="console-bad">Disabled</span>
          ) : (
            !locked && <span class="console-ok">Active</span>
          )}
          {locked && (
            <>
              {u.disabled ? <br /> : null}
              <span class="console-bad">Locked until {when(u.lockedUntil)}</span>
            </>
          )}
        </td>
        <td>{u.workspaceIds.map((id) => props.names.get(id) ?? id).join(', ') || '—'}</td>
        <td>{u.lastSignInAt ? when(u.lastSignInAt) : 'Never'}</td>
        <td>{when(u.createdAt)}</td>
        <td>
          <div class="console-actions">
            <button
              type="button"
              onClick={() => actions.toggleDisabled(u)}
              disabled={busy}
              aria-describedby={emailId}
            >
              {u.disabled ? 'Enable' : 'Disable'}
            </button>
            <button
              type="button"
              onClick={() => actions.toggleOperator(u)}
              disabled={busy}
              aria-describedby={emailId}
            >
              {u.operator ? 'Demote' : 'Promote to operator'}
            </button>
            <button
              type="button"
              onClick={() => actions.editMemberships(u)}
              disabled={busy}
              aria-expanded={props.editor ? 'true' : 'false'}
              aria-describedby={emailId}
            >
              Edit memberships
            </button>
            <button
              type="button"
              onClick={() => actions.issueReset(u)}
              disabled={busy}
              aria-describedby={emailId}
            >
              Issue password-reset link
            </button>
            {locked && (
              <button
                type="button"
                onClick={() => actions.unlock(u)}
                disabled={busy}
                aria-describedby={emailId}
              >
                Unlock sign-in
              </button>
            )}
            <button
              type="button"
              onClick={() => actions.remove(u)}
              disabled={busy}
              aria-describedby={emailId}
            >
              Delete
            </button>
          </div>
        </td>
      </tr>
      {props.editor && (
        <tr>
          <td colSpan={7}>{props.editor}</td>
        </tr>
      )}
      {props.resetLink && (
        <tr>
          <td colSpan={7}>{props.resetLink}</td>
        </tr>
      )}
    </>
  );
}

/** Which workspaces a person is a member of: checkboxes, saved at once. */
function Memberships(props: {
  user: User;
  workspaces: Workspace[];
  busy: boolean;
  onSave(workspaceIds: string[]): void;
  onCancel(): void;
}) {
  const { user } = props;
  const [chosen, setChosen] = useState<string[]>(user.workspaceIds);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const save = (event: Event) => {
    event.preventDefault();
    props.onSave(chosen);
  };
  const emptyMember = !user.operator && chosen.length === 0;
  return (
    <form class="console-card" onSubmit={save} aria-label={`Memberships of ${user.email}`}>
      <fieldset>
        <legend>Member of (for {user.email})</legend>
        {props.workspaces.length === 0 && <p class="console-muted">No workspaces yet.</p>}
        {props.workspaces.map((w, index) => (
          <label key={w.id} class="console-check">
            <input
              ref={index === 0 ? first : undefined}
              type="checkbox"
              checked={chosen.includes(w.id)}
              onChange={(e) =>
                setChosen(e.currentTarget.checked ? [...chosen, w.id] : chosen.filter((id) => id !== w.id))
              }
            />{' '}
            {w.name}
          </label>
        ))}
      </fieldset>
      {emptyMember && <p class="console-muted">A member needs at least one workspace.</p>}
      <div class="console-row">
        <button type="submit" class="primary" disabled={props.busy || emptyMember}>
          Save memberships
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Add a person: email, first password, operator or member of some workspaces. */
function CreateUser({ workspaces, onCreated }: { workspaces: Workspace[]; onCreated(): void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [operator, setOperator] = useState(false);
  const [member, setMember] = useState<string[]>([]);
  const [error, busy, act] = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await call('POST', '/admin/v1/users', { body: { email, password, operator, workspaceIds: member } });
      setEmail('');
      setPassword('');
      onCreated();
    });
  };
  return (
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
      <ErrorNote error={error} plain={{ CONFLICT: null }} />
    </form>
  );
}
