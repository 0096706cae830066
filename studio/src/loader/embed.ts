/**
 * `/embed.js`: the customer-facing loader, an IIFE with no dependencies. The API is fixed:
 *
 *   const studio = Platen.open({ embedId, token, container, templateId?, onEvent? });
 *   studio.setToken(newToken);
 *   studio.close();
 *
 * It frames `{origin}/studio/{embedId}` (the origin is this script's own) and hands the token over
 * by postMessage with that exact origin as targetOrigin: never in a URL. It listens only to
 * messages whose source is its iframe's window and whose origin is the service's.
 */

type EventType = 'ready' | 'saved' | 'rendered' | 'closed' | 'token-expired' | 'error';
interface StudioEvent {
  type: EventType;
  [key: string]: unknown;
}
interface OpenOptions {
  embedId: string;
  token: string;
  container: Element | string;
  templateId?: string;
  onEvent?: (event: StudioEvent) => void;
}
interface StudioHandle {
  setToken(token: string): void;
  close(): void;
}

const EVENT_TYPES: readonly string[] = ['ready', 'saved', 'rendered', 'token-expired', 'error'];

// Read at load time: document.currentScript is null once the script has run.
const script = document.currentScript as HTMLScriptElement | null;
const serviceOrigin = script?.src ? new URL(script.src).origin : window.location.origin;

function open(options: OpenOptions): StudioHandle {
  if (!options || typeof options.embedId !== 'string' || !/^[A-Za-z0-9_-]+$/.test(options.embedId))
    throw new TypeError('Platen.open: embedId is required');
  if (typeof options.token !== 'string' || !options.token)
    throw new TypeError('Platen.open: token is required');
  const container =
    typeof options.container === 'string' ? document.querySelector(options.container) : options.container;
  if (!container) throw new TypeError('Platen.open: container not found');

  let token = options.token;
  let closed = false;
  let initSent = false;
  const emit = (event: StudioEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      // A throwing host callback must not break the bridge.
      setTimeout(() => {
        throw error;
      });
    }
  };

  const iframe = document.createElement('iframe');
  iframe.src = `${serviceOrigin}/studio/${encodeURIComponent(options.embedId)}`;
  iframe.title = 'Design studio';
  iframe.setAttribute('allow', 'clipboard-read; clipboard-write');
  iframe.style.cssText = 'width:100%;height:100%;border:0;display:block';

  const post = (message: object) => iframe.contentWindow?.postMessage(message, serviceOrigin);
  const sendInit = () => {
    if (closed || initSent) return;
    initSent = true;
    post({ type: 'platen:init', token, templateId: options.templateId ?? null });
  };

  const onMessage = (event: MessageEvent) => {
    if (event.source !== iframe.contentWindow || event.origin !== serviceOrigin) return;
    const data = event.data as { type?: unknown; event?: unknown } | null;
    if (!data || typeof data !== 'object') return;
    if (data.type === 'platen:hello') sendInit();
    else if (data.type === 'platen:event') {
      const inner = data.event as StudioEvent | null;
      if (inner && typeof inner === 'object' && EVENT_TYPES.includes(inner.type)) emit(inner);
    }
  };
  window.addEventListener('message', onMessage);
  // After a reload of the frame (the user refreshed it), the studio needs the token again.
  iframe.addEventListener('load', () => {
    initSent = false;
    sendInit();
  });
  container.appendChild(iframe);

  return {
    setToken(next: string) {
      if (closed || typeof next !== 'string' || !next) return;
      token = next;
      post({ type: 'platen:token', token });
    },
    close() {
      if (closed) return;
      closed = true;
      window.removeEventListener('message', onMessage);
      iframe.remove();
      emit({ type: 'closed' });
    },
  };
}

const global = window as unknown as { Platen?: { open: typeof open; version: string } };
global.Platen = { open, version: '1' };
