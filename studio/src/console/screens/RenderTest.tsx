/**
 * A render test: a form for the template's variables, a live preview drawn in the browser by the
 * engine the server renders with (the studio's renderer, fonts and image loader, on a console
 * studio session), the credits the render will cost, and a real render through the API.
 */
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { applyModifications, type DesignDocument } from '../../../../src/engine/browser.ts';
import { createApi, type RenderResponse, type RenderResult, type Template } from '../../api.ts';
import { imageLoader } from '../../app/images.ts';
import { PageRenderer } from '../../editor/renderer.ts';
import { fontsFor } from '../../fonts.ts';
import { call, consoleApi } from '../client.ts';
import { workspaceHref } from '../router.ts';
import { ErrorNote, RefreshWorkspace, Show, useAction, useLoad } from '../ui.tsx';

type Format = RenderResult['format'];

export function RenderTestScreen({ workspaceId, templateId }: { workspaceId: string; templateId: string }) {
  const template = useLoad(
    () => call<Template>('GET', `/v1/templates/${encodeURIComponent(templateId)}`, { workspaceId }),
    `${workspaceId}/${templateId}`,
  );
  return (
    <section aria-labelledby="render-title">
      <div class="console-row">
        <h1 id="render-title" class="console-grow">
          Render test
        </h1>
        <a class="console-button" href={workspaceHref(workspaceId, 'templates')}>
          Back to templates
        </a>
      </div>
      <Show loaded={template} what="the template">
        {(t) => <RenderForm workspaceId={workspaceId} template={t} />}
      </Show>
    </section>
  );
}

function RenderForm({ workspaceId, template }: { workspaceId: string; template: Template }) {
  const names = Object.keys(template.document.variables ?? {});
  const [values, setValues] = useState<Record<string, string>>(() => ({
    ...(template.document.variables ?? {}),
  }));
  const [format, setFormat] = useState<Format>('png');
  const [allPages, setAllPages] = useState(false);
  const [result, setResult] = useState<RenderResult[] | null>(null);
  const [error, busy, act] = useAction();
  const refreshWorkspace = useContext(RefreshWorkspace);
  const modified = useMemo(() => applyModifications(template.document, values), [template, values]);
  const files = allPages && format !== 'pdf' ? template.pageCount : 1;

  const render = async (event: Event) => {
    event.preventDefault();
    await act(async () => {
      const answer = await call<RenderResponse>('POST', `/v1/templates/${template.id}/render`, {
        workspaceId,
        body: { format, modifications: values, ...(allPages ? { allPages: true } : {}) },
      });
      setResult('pages' in answer ? answer.pages : [answer]);
    });
    // The balance line above follows what the render spent (or a refusal's news: suspended, empty).
    refreshWorkspace();
  };

  return (
    <div class="console-split">
      <form class="console-card" onSubmit={(event) => void render(event)} aria-label="Render test">
        <h2>{template.name}</h2>
        {names.length === 0 && <p class="console-muted">This template has no variables.</p>}
        {names.map((name) => (
          <div key={name}>
            <label for={`var-${name}`}>{name}</label>
            <input
              id={`var-${name}`}
              value={values[name] ?? ''}
              onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })}
            />
          </div>
        ))}
        <label for="render-format">Format</label>
        <select
          id="render-format"
          value={format}
          onChange={(e) => setFormat(e.currentTarget.value as Format)}
        >
          <option value="png">PNG</option>
          <option value="jpeg">JPEG</option>
          <option value="pdf">PDF (every page, one file)</option>
        </select>
        {template.pageCount > 1 && format !== 'pdf' && (
          <label class="console-check">
            <input
              type="checkbox"
              checked={allPages}
              onChange={(e) => setAllPages(e.currentTarget.checked)}
            />{' '}
            Every page
          </label>
        )}
        <p data-testid="cost">
          Costs <strong>{files}</strong> credit{files === 1 ? '' : 's'} (free if the very same render was made
          before).
        </p>
        <button type="submit" class="primary" disabled={busy || !modified.ok}>
          {busy ? 'Rendering…' : 'Render'}
        </button>
        <ErrorNote error={error} />
        {result?.map((file, index) => (
          <p key={file.url ?? index} class="console-ok" role="status">
            Rendered: charged {file.credits.charged}, balance {file.credits.balanceAfter}.{' '}
            {file.url && (
              <a href={file.url} target="_blank" rel="noreferrer">
                Open the file
              </a>
            )}
          </p>
        ))}
      </form>
      <div class="console-card">
        <h2>Preview</h2>
        {modified.ok ? (
          <Preview workspaceId={workspaceId} document={modified.document} />
        ) : (
          <ErrorNote error={new Error(modified.issues.map((i) => `${i.path}: ${i.message}`).join('; '))} />
        )}
      </div>
    </div>
  );
}

/** The first page, drawn by the studio's renderer through a console studio session. */
function Preview({ workspaceId, document: doc }: { workspaceId: string; document: DesignDocument }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [tick, setTick] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const session = useLoad(async () => {
    const minted = await call<{ token: string; embedId: string }>(
      'POST',
      consoleApi(workspaceId, '/studio-session'),
    );
    const api = createApi(minted.embedId, () => undefined);
    api.setToken(minted.token);
    return api;
  }, workspaceId);
  const renderer = useMemo(() => {
    if (!session.data) return null;
    return new PageRenderer({
      loadImage: imageLoader(session.data),
      fonts: fontsFor(doc, session.data),
      invalidate: () => setTick((t) => t + 1),
    });
    // One renderer per session: fonts for the first document (variables change text, not families).
  }, [session.data]);
  const page = doc.pages.find((p) => p.id === doc.activePageId) ?? doc.pages[0];
  useEffect(() => {
    if (!renderer || !canvas.current || !page) return;
    try {
      const zoom = Math.min(1, 560 / page.width, 420 / page.height);
      const failure = renderer.draw(canvas.current, page, zoom, window.devicePixelRatio || 1);
      canvas.current.style.width = `${Math.round(page.width * zoom)}px`;
      canvas.current.setAttribute('aria-busy', renderer.settled ? 'false' : 'true');
      setError(failure ? new Error(failure) : null);
    } catch (caught) {
      setError(caught);
    }
  }, [renderer, page, tick]);
  if (session.error) return <ErrorNote error={session.error} />;
  return (
    <>
      <ErrorNote error={error} />
      <canvas ref={canvas} class="console-preview" role="img" aria-label="Live preview of the first page" />
    </>
  );
}
