/**
 * A template's history (docs/versions.md): its published versions, newest first, with who published
 * each and when; publish the draft with a note; roll the draft back to a version (asked first, and
 * guarded by the draft's revision: if someone saved meanwhile the 412 says so and nothing changes);
 * compare two versions or one and the draft. Every console person has every scope in their
 * workspaces (src/console/session-auth.ts), so publish and roll back are shown as the screen's other
 * changes are; a refusal shows the service's reason.
 */
import { useState } from 'preact/hooks';
import type { TemplateVersion } from '../../history/changes.ts';
import { call, type Page, type TemplateRecord } from '../client.ts';
import { workspaceHref } from '../router.ts';
import { Empty, ErrorNote, Show, useAction, useLoad, when } from '../ui.tsx';
import { type Comparison, HistoryCompare } from './HistoryCompare.tsx';

const CHANGE_ERRORS = {
  PRECONDITION_FAILED:
    'The draft was saved elsewhere (in the studio, or by the API) since this page loaded, so nothing was rolled back. The list below is read again: look, then roll back again if you still want to.',
  FORBIDDEN: null,
};

export function HistoryScreen({ workspaceId, templateId }: { workspaceId: string; templateId: string }) {
  const opts = { workspaceId };
  const base = `/v1/templates/${encodeURIComponent(templateId)}`;
  const template = useLoad(() => call<TemplateRecord>('GET', base, opts), templateId);
  const versions = useLoad(
    () => call<Page<TemplateVersion>>('GET', `${base}/versions?limit=100`, opts),
    templateId,
  );
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [asked, setAsked] = useState<Comparison | null>(null);
  const [error, busy, act] = useAction();

  const reload = () => {
    template.reload();
    versions.reload();
  };
  const publish = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const trimmed = note.trim();
      const answer = await call<TemplateVersion>('POST', `${base}/versions`, {
        ...opts,
        body: trimmed ? { note: trimmed } : {},
      });
      const latest = versions.data?.items[0]?.number ?? 0;
      setDone(
        answer.number > latest
          ? `Published version ${answer.number}.`
          : `Nothing changed since version ${answer.number}: no new version was made.`,
      );
      setNote('');
      reload();
    });
  };
  const rollback = (version: TemplateVersion) => {
    const revision = template.data?.revision;
    if (revision === undefined) return;
    if (!window.confirm(`Replace the draft with version ${version.number}? The versions do not change.`))
      return;
    void act(async () => {
      setDone(null);
      try {
        await call('POST', `${base}/versions/${version.number}/rollback`, {
          ...opts,
          headers: { 'if-match': `"${revision}"` },
        });
      } finally {
        // Either way the draft's revision is read again: after a 412 the next try uses the new one.
        reload();
      }
      setDone(`The draft is now a copy of version ${version.number}.`);
    });
  };

  const name = template.data?.name ?? 'template';
  return (
    <section aria-labelledby="history-title">
      <div class="console-row">
        <h1 id="history-title" class="console-grow">
          History of {name}
        </h1>
        <a class="console-button" href={workspaceHref(workspaceId, 'studio', templateId)}>
          Open in studio
        </a>
        <a class="console-button" href={workspaceHref(workspaceId, 'templates')}>
          Back to templates
        </a>
      </div>
      <ErrorNote error={template.error} />
      <form class="console-card console-inline" onSubmit={publish} aria-label="Publish the draft">
        <label class="console-grow">
          Note (optional)
          <input
            value={note}
            maxLength={500}
            onInput={(e) => setNote(e.currentTarget.value)}
            placeholder="What changed"
          />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          Publish the draft
        </button>
      </form>
      <ErrorNote error={error} plain={CHANGE_ERRORS} />
      {done && (
        <p class="console-ok" role="status">
          {done}
        </p>
      )}
      <Show loaded={versions} what="versions">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>Nothing published yet. Publish the draft to freeze it as version 1.</Empty>
          ) : (
            <>
              <table class="console-table" aria-label="Versions">
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col">Note</th>
                    <th scope="col">Published by</th>
                    <th scope="col">When</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((v) => (
                    <tr key={v.number}>
                      <td>{v.number}</td>
                      <td>{v.note ?? <span class="console-muted">—</span>}</td>
                      <td>
                        <code>{v.publishedBy}</code>
                      </td>
                      <td>{when(v.createdAt)}</td>
                      <td class="console-actions">
                        <button
                          type="button"
                          onClick={() => setAsked({ from: v.number, to: 'draft' })}
                          aria-label={`Compare version ${v.number} with the draft`}
                        >
                          Compare
                        </button>
                        <button
                          type="button"
                          onClick={() => rollback(v)}
                          disabled={busy || !template.data}
                          aria-label={`Roll back to this version (version ${v.number})`}
                        >
                          Roll back to this version
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {page.nextCursor && <p class="console-muted">The 100 newest versions are shown.</p>}
              <HistoryCompare
                workspaceId={workspaceId}
                templateId={templateId}
                numbers={page.items.map((v) => v.number)}
                asked={asked}
                onAsk={setAsked}
              />
            </>
          )
        }
      </Show>
    </section>
  );
}
