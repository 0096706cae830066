/** Recent renders: status, format, files, credits, where they came from, and a link to the file. */
import type { RenderListItem as RenderItem } from '@platen/client';
import { useState } from 'preact/hooks';
import { call, type Page } from '../client.ts';
import { Empty, Show, useLoad, when } from '../ui.tsx';

const SOURCES: Record<string, string> = {
  api: 'API',
  embed: 'Embed',
  mcp: 'MCP',
  url: 'Signed URL',
  console: 'Console',
};

export function RendersScreen({ workspaceId }: { workspaceId: string }) {
  const [cursor, setCursor] = useState<string | null>(null);
  const query = `/v1/renders?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const renders = useLoad(
    () => call<Page<RenderItem>>('GET', query, { workspaceId }),
    `${workspaceId}${query}`,
  );
  return (
    <section aria-labelledby="renders-title">
      <div class="console-row">
        <h1 id="renders-title" class="console-grow">
          Renders
        </h1>
        <button type="button" onClick={renders.reload}>
          Refresh
        </button>
      </div>
      <Show loaded={renders} what="renders">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No renders yet. Try one from a template's render test.</Empty>
          ) : (
            <>
              <table class="console-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Status</th>
                    <th scope="col">Format</th>
                    <th scope="col">Files</th>
                    <th scope="col">Credits</th>
                    <th scope="col">Source</th>
                    <th scope="col">Template</th>
                    <th scope="col">File</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((r) => (
                    <tr key={r.id}>
                      <td>{when(r.createdAt)}</td>
                      <td
                        class={
                          r.status === 'failed' ? 'console-bad' : r.status === 'done' ? 'console-ok' : ''
                        }
                      >
                        {r.status}
                        {r.errorCode ? ` (${r.errorCode})` : ''}
                      </td>
                      <td>{r.format.toUpperCase()}</td>
                      <td>{r.files}</td>
                      <td>{r.credits}</td>
                      <td>{SOURCES[r.source] ?? r.source}</td>
                      <td>
                        <code>{r.templateId}</code>
                      </td>
                      <td>
                        {r.url ? (
                          <a href={r.url} target="_blank" rel="noreferrer">
                            Open
                          </a>
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <div class="console-row">
                {cursor && (
                  <button type="button" onClick={() => setCursor(null)}>
                    Newest
                  </button>
                )}
                {page.nextCursor && (
                  <button type="button" onClick={() => setCursor(page.nextCursor)}>
                    Older
                  </button>
                )}
              </div>
            </>
          )
        }
      </Show>
    </section>
  );
}
