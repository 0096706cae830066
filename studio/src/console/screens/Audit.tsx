/** The audit log (operators): sensitive actions, who did them and when. */
import type { AuditEntry as Entry } from '@platen/client';
import { useState } from 'preact/hooks';
import { call, type Page } from '../client.ts';
import { Empty, Show, useLoad, when } from '../ui.tsx';

export function AuditScreen() {
  const [cursor, setCursor] = useState<string | null>(null);
  const path = `/admin/v1/audit-log?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const log = useLoad(() => call<Page<Entry>>('GET', path), path);
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <Show loaded={log} what="the audit log">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>Nothing recorded yet.</Empty>
          ) : (
            <>
              <table class="console-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Workspace</th>
                    <th scope="col">Target</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((e) => (
                    <tr key={e.id}>
                      <td>{when(e.at)}</td>
                      <td>
                        <code>{e.actor}</code>
                      </td>
                      <td>{e.action}</td>
                      <td>{e.workspaceId ?? '—'}</td>
                      <td>
                        <code>{e.target ?? '—'}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {page.nextCursor && (
                <button type="button" onClick={() => setCursor(page.nextCursor)}>
                  Older
                </button>
              )}
            </>
          )
        }
      </Show>
    </section>
  );
}
