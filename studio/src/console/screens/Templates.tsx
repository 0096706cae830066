/**
 * Templates: thumbnails, open in the studio, a render test, the history (versions), duplicate, share,
 * delete, and a new one.
 */
import { call, type Page, type TemplateRecord } from '../client.ts';
import { go, workspaceHref } from '../router.ts';
import { Empty, ErrorNote, Show, useAction, useLoad, when } from '../ui.tsx';

export function TemplatesScreen({ workspaceId }: { workspaceId: string }) {
  const opts = { workspaceId };
  const list = useLoad(() => call<Page<TemplateRecord>>('GET', '/v1/templates?limit=100', opts), workspaceId);
  const [error, busy, act] = useAction();

  const create = () =>
    act(async () => {
      const created = await call<TemplateRecord>('POST', '/v1/templates', {
        ...opts,
        body: { name: 'Untitled design', width: 1200, height: 630 },
      });
      go(workspaceHref(workspaceId, 'studio', created.id));
    });
  const duplicate = (t: TemplateRecord) =>
    act(async () => {
      const full = await call<{ document: unknown }>('GET', `/v1/templates/${t.id}`, opts);
      await call('POST', '/v1/templates', {
        ...opts,
        body: { name: `${t.name} (copy)`.slice(0, 200), document: full.document },
      });
      list.reload();
    });
  const share = (t: TemplateRecord) =>
    act(async () => {
      await call('PATCH', `/v1/templates/${t.id}`, { ...opts, body: { shared: !t.shared } });
      list.reload();
    });
  const remove = (t: TemplateRecord) =>
    act(async () => {
      if (!window.confirm(`Delete "${t.name}"? This cannot be undone.`)) return;
      await call('DELETE', `/v1/templates/${t.id}`, opts);
      list.reload();
    });

  return (
    <section aria-labelledby="templates-title">
      <div class="console-row">
        <h1 id="templates-title" class="console-grow">
          Templates
        </h1>
        <button type="button" class="primary" onClick={() => void create()} disabled={busy}>
          New template
        </button>
      </div>
      <ErrorNote error={error} />
      <Show loaded={list} what="templates">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No templates yet. Create one and design it in the studio.</Empty>
          ) : (
            <ul class="console-grid">
              {page.items.map((t) => (
                <li key={t.id} class="console-card console-template">
                  <div class="console-thumb">
                    {t.thumbnailUrl ? (
                      <img src={t.thumbnailUrl} alt={`Thumbnail of ${t.name}`} loading="lazy" />
                    ) : (
                      <span class="console-muted">No thumbnail yet</span>
                    )}
                  </div>
                  <h2>{t.name}</h2>
                  <p class="console-muted">
                    {t.width} × {t.height}
                    {t.pageCount > 1 ? `, ${t.pageCount} pages` : ''} · {t.shared ? 'shared' : 'private'}
                    {t.ownerUserId ? ` · end-user ${t.ownerUserId}` : ''} · {when(t.updatedAt)}
                  </p>
                  <div class="console-actions">
                    <a
                      class="console-button"
                      href={workspaceHref(workspaceId, 'studio', t.id)}
                      aria-label={`Open in studio: ${t.name}`}
                    >
                      Open in studio
                    </a>
                    <a
                      class="console-button"
                      href={workspaceHref(workspaceId, 'render', t.id)}
                      aria-label={`Render test of ${t.name}`}
                    >
                      Render test
                    </a>
                    <a
                      class="console-button"
                      href={workspaceHref(workspaceId, 'history', t.id)}
                      aria-label={`History of ${t.name}`}
                    >
                      History
                    </a>
                    <button
                      type="button"
                      onClick={() => void duplicate(t)}
                      disabled={busy}
                      aria-label={`Duplicate ${t.name}`}
                    >
                      Duplicate
                    </button>
                    <button
                      type="button"
                      onClick={() => void share(t)}
                      disabled={busy}
                      aria-pressed={t.shared}
                      aria-label={`${t.shared ? 'Shared' : 'Share'}: ${t.name}`}
                      title="Shared templates are seen by every embed session of the workspace"
                    >
                      {t.shared ? 'Shared' : 'Share'}
                    </button>
                    <button
                      type="button"
                      onClick={() => void remove(t)}
                      disabled={busy}
                      aria-label={`Delete ${t.name}`}
                    >
                      Delete
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </section>
  );
}
