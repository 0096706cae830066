/**
 * The studio shell: reads the embed id from the path, fetches the public info (branding, toggles),
 * takes the session token from the host bridge, and switches between the template browser and the
 * editor. `ready` is emitted once branding is applied and the first list is shown.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, createApi, type EmbedInfo } from '../api.ts';
import { createBridge, type InitMessage } from '../bridge.ts';
import { registerFonts } from '../fonts.ts';
import { Browser } from './Browser.tsx';
import { applyBranding, BrandMark } from './branding.tsx';
import { EditorScreen } from './EditorScreen.tsx';
import { Message } from './Message.tsx';

const embedId = decodeURIComponent(window.location.pathname.split('/').filter(Boolean)[1] ?? '');

type Screen = { kind: 'browser' } | { kind: 'editor'; templateId: string };

export function App() {
  const [info, setInfo] = useState<EmbedInfo | null>(null);
  const [fatal, setFatal] = useState<string | null>(null);
  const [init, setInit] = useState<InitMessage | null>(null);
  const [screen, setScreen] = useState<Screen>({ kind: 'browser' });
  const [readySent, setReadySent] = useState(false);

  // Created once: the bridge must listen before the loader's init can arrive.
  const { api, bridge } = useMemo(() => {
    const created = createApi(embedId, () => host.emit({ type: 'token-expired' }));
    const host = createBridge({
      onInit: (value) => {
        created.setToken(value.token);
        setInit(value);
      },
      onToken: (token) => created.setToken(token),
    });
    return { api: created, bridge: host };
  }, []);

  useEffect(() => {
    api.info().then(
      (value) => {
        setInfo(value);
        applyBranding(value);
        if (!value.enabled)
          bridge.emit({ type: 'error', code: 'EMBED_DISABLED', message: 'This studio is disabled.' });
        else void registerFonts().catch(() => undefined);
      },
      (error: unknown) => {
        const notFound = error instanceof ApiError && error.status === 404;
        const message = notFound ? 'This studio does not exist.' : 'The studio could not reach the service.';
        setFatal(message);
        bridge.emit({ type: 'error', code: notFound ? 'NOT_FOUND' : 'UNAVAILABLE', message });
      },
    );
  }, [api, bridge]);

  useEffect(() => {
    if (init?.templateId) setScreen({ kind: 'editor', templateId: init.templateId });
  }, [init]);

  if (fatal) return <Message title="Studio unavailable" text={fatal} />;
  if (!info) return <Message title="Loading…" text="Opening the studio." busy />;
  if (!info.enabled)
    return (
      <Message title={info.brandTitle} text="This studio is currently disabled. Please try again later." />
    );
  if (!bridge.framed)
    return <Message title={info.brandTitle} text="Open this studio from the page it is embedded in." />;
  if (!init) return <Message title={info.brandTitle} text="Connecting…" busy />;

  const onReady = () => {
    if (readySent) return;
    setReadySent(true);
    bridge.emit({ type: 'ready', embedId });
  };

  return (
    <div class="shell">
      {screen.kind === 'browser' ? (
        <Browser
          api={api}
          info={info}
          brand={<BrandMark info={info} />}
          onReady={onReady}
          onOpen={(templateId) => setScreen({ kind: 'editor', templateId })}
          onError={(code, message) => bridge.emit({ type: 'error', code, message })}
        />
      ) : (
        <EditorScreen
          api={api}
          info={info}
          bridge={bridge}
          templateId={screen.templateId}
          brand={<BrandMark info={info} />}
          onReady={onReady}
          onBack={() => setScreen({ kind: 'browser' })}
          onOpen={(templateId) => setScreen({ kind: 'editor', templateId })}
        />
      )}
    </div>
  );
}
