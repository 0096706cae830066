/**
 * The audit log (operators): sensitive actions, who did them (a person's email, the operator token,
 * an API key's prefix), in which workspace, on what, when and from which address. Filters by
 * workspace, action and person; "Load more" follows the cursor, newest first.
 */

import type { AuditEntry, AuditPage, AuditQuery, User } from '@platen/client';
import { useState } from 'preact/hooks';
import { call, type Workspace } from '../client.ts';
import { Empty, ErrorNote, Show, useAction, useLoad, when } from '../ui.tsx';

type AuditAction = NonNullable<AuditQuery['action']>;

/**
 * The actions the service records, for the filter: checked against the generated type both ways
 * (no unknown action here, and none of the type's missing: `Missing` must be `never`).
 */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'embed.created',
  'embed.updated',
  'embed.deleted',
  'url_secret.created',
  'url_secret.updated',
  'url_secret.rotated',
  'url_secret.revoked',
  'render_url.signed',
  'workspace.created',
  'workspace.renamed',
  'workspace.suspended',
  'workspace.reinstated',
  'credits.granted',
  'credits.withdrawn',
  'user.created',
  'user.disabled',
  'user.enabled',
  'user.deleted',
  'user.promoted',
  'user.demoted',
  'user.memberships_changed',
  'user.password_reset_issued',
  'user.password_reset',
  'user.unlocked',
  'signin.locked',
  'setup_link.issued',
  'template.published',
  'template.rolled_back',
] as const satisfies readonly AuditAction[];
type Missing = Exclude<AuditAction, (typeof AUDIT_ACTIONS)[number]>;
const everyAction: [Missing] extends [never] ? true : Missing = true;
void everyAction;

const PAGE_SIZE = 50;

/** '' means no filter. */
interface Filters {
  workspaceId: string;
  action: AuditAction | '';
  userId: string;
}
const NO_FILTERS: Filters = { workspaceId: '', action: '', userId: '' };

function auditPath(filters: Filters, cursor: string | null): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  for (const name of ['workspaceId', 'action', 'userId'] as const)
    if (filters[name]) query.set(name, filters[name]);
  return `/admin/v1/audit-log?${query}`;
}

export function AuditScreen() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const first = auditPath(filters, null);
  const log = useLoad(() => call<AuditPage>('GET', first), first);
  // Older pages loaded with "Load more", for the filters they were loaded under.
  const [older, setOlder] = useState<{ for: string; items: AuditEntry[]; nextCursor: string | null } | null>(
    null,
  );
  const more = older?.for === first ? older : null;
  const [error, busy, act] = useAction();
  const workspaces = useLoad(() => call<{ items: Workspace[] }>('GET', '/admin/v1/workspaces'), 'workspaces');
  const users = useLoad(() => call<{ items: User[] }>('GET', '/admin/v1/users'), 'users');
  const names = new Map((workspaces.data?.items ?? []).map((w) => [w.id, w.name]));
  const filtered = filters.workspaceId !== '' || filters.action !== '' || filters.userId !== '';
  // New filters start from the newest page again.
  const filter = (next: Filters) => {
    setOlder(null);
    setFilters(next);
  };
  const set = (name: keyof Filters, value: string) => filter({ ...filters, [name]: value });

  const loadMore = (cursor: string) =>
    void act(async () => {
      const page = await call<AuditPage>('GET', auditPath(filters, cursor));
      setOlder({ for: first, items: [...(more?.items ?? []), ...page.items], nextCursor: page.nextCursor });
    });

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form
        class="console-card console-inline"
        aria-label="Filter the audit log"
        onSubmit={(e) => e.preventDefault()}
      >
        <div>
          <label for="audit-workspace">Workspace</label>
          <select
            id="audit-workspace"
            value={filters.workspaceId}
            onChange={(e) => set('workspaceId', e.currentTarget.value)}
          >
            <option value="">Any workspace</option>
            {(workspaces.data?.items ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="audit-action">Action</label>
          <select
            id="audit-action"
            value={filters.action}
            onChange={(e) => set('action', e.currentTarget.value)}
          >
            <option value="">Any action</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="audit-person">Person</label>
          <select
            id="audit-person"
            value={filters.userId}
            onChange={(e) => set('userId', e.currentTarget.value)}
          >
            <option value="">Anyone</option>
            {(users.data?.items ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </select>
        </div>
        {filtered && (
          <button type="button" onClick={() => filter(NO_FILTERS)}>
            Clear filters
          </button>
        )}
      </form>
      <Show loaded={log} what="the audit log">
        {(page) => {
          const items = [...page.items, ...(more?.items ?? [])];
          const nextCursor = more ? more.nextCursor : page.nextCursor;
          if (items.length === 0)
            return <Empty>{filtered ? 'No entries match these filters.' : 'Nothing recorded yet.'}</Empty>;
          return (
            <>
              <table class="console-table" aria-label="Audit entries">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Workspace</th>
                    <th scope="col">Object</th>
                    <th scope="col">Address</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((e) => (
                    <tr key={e.id}>
                      <td>{when(e.at)}</td>
                      <td>
                        <Actor actor={e.actor} />
                      </td>
                      <td>{e.action}</td>
                      <td>
                        {e.workspaceId ? (names.get(e.workspaceId) ?? <code>{e.workspaceId}</code>) : '—'}
                      </td>
                      <td>
                        <Target entry={e} />
                      </td>
                      <td>{e.address ? <code>{e.address}</code> : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p class="console-muted" role="status">
                {items.length} {items.length === 1 ? 'entry' : 'entries'} shown
                {nextCursor ? '; older ones can be loaded.' : '.'}
              </p>
              <ErrorNote error={error} />
              {nextCursor && (
                <button type="button" onClick={() => loadMore(nextCursor)} disabled={busy}>
                  {busy ? 'Loading…' : 'Load more'}
                </button>
              )}
            </>
          );
        }}
      </Show>
    </section>
  );
}

function Actor({ actor }: { actor: AuditEntry['actor'] }) {
  // An API key reads as its prefix: code, as in the keys list.
  if (actor.type === 'api_key') return <code>{actor.label}</code>;
  return <>{actor.label}</>;
}

/** What was acted on (an id), and the details the service recorded with it. */
function Target({ entry }: { entry: AuditEntry }) {
  const details =
    entry.details === null || entry.details === undefined ? '' : JSON.stringify(entry.details, null, 2);
  return (
    <>
      {entry.target ? <code>{entry.target}</code> : '—'}
      {details && details !== '{}' && (
        <details>
          <summary>Details</summary>
          <pre class="console-details">{details}</pre>
        </details>
      )}
    </>
  );
}
