/**
 * The studio, in the console: the very studio customers embed, opened with /embed.js on the
 * workspace's console embed, with a session the console mints and renews when it expires.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, consoleApi } from '../client.ts';
import { workspaceHref } from '../router.ts';
import { ErrorNote } from '../ui.tsx';

interface StudioHandle {
  setToken(token: string): void;
  close(): void;
}
interface PlatenLoader {
  open(options: {
    embedId: string;
    token: string;
    container: HTMLElement;
    templateId?: string;
    onEvent?: (event: { type: string }) => void;
  }): StudioHandle;
}
declare global {
  interface Window {
    Platen?: PlatenLoader;
  }
}

let loader: Promise<PlatenLoader> | null = null;
function loadLoader(): Promise<PlatenLoader> {
  loader ??= new Promise((resolve, reject) => {
    if (window.Platen) return resolve(window.Platen);
    const script = document.createElement('script');
    script.src = '/embed.js';
    script.onload = () =>
      window.Platen ? resolve(window.Platen) : reject(new Error('embed.js did not load'));
    script.onerror = () => reject(new Error('embed.js could not be loaded'));
    document.head.append(script);
  });
  return loader;
}

export function StudioScreen({
  workspaceId,
  templateId,
}: {
  workspaceId: string;
  templateId: string | null;
}) {
  const container = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('Opening the studio…');

  useEffect(() => {
    let studio: StudioHandle | null = null;
    let live = true;
    const mint = () =>
      call<{ token: string; embedId: string }>('POST', consoleApi(workspaceId, '/studio-session'));
    (async () => {
      const [session, platen] = await Promise.all([mint(), loadLoader()]);
      if (!live || !container.current) return;
      studio = platen.open({
        embedId: session.embedId,
        token: session.token,
        container: container.current,
        ...(templateId ? { templateId } : {}),
        onEvent: (event) => {
          if (event.type === 'ready') setStatus('');
          if (event.type === 'saved') setStatus('Saved');
          if (event.type === 'token-expired')
            void mint().then((next) => studio?.setToken(next.token), setError);
        },
      });
    })().catch((caught: unknown) => live && setError(caught));
    return () => {
      live = false;
      studio?.close();
    };
  }, [workspaceId, templateId]);

  return (
    <section aria-labelledby="studio-title" class="console-studio">
      <div class="console-row">
        <h1 id="studio-title" class="console-grow">
          Studio
        </h1>
        <span class="console-muted" role="status">
          {status}
        </span>
        <a class="console-button" href={workspaceHref(workspaceId, 'templates')}>
          Back to templates
        </a>
      </div>
      <ErrorNote error={error} />
      <div ref={container} class="console-studio-frame" />
    </section>
  );
}
