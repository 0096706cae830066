/**
 * The studio's side of the host bridge (the loader, /embed.js, is the other side). It accepts
 * `platen:init` and `platen:token` only from `window.parent`, and after the first init only from
 * that init's origin; events go to the parent with that origin as targetOrigin, never '*'. Events
 * raised before the init are held and sent once the origin is known.
 */

export type StudioEvent =
  | { type: 'ready'; embedId: string }
  | { type: 'saved'; templateId: string; revision: number }
  | { type: 'rendered'; templateId: string; result: unknown }
  | { type: 'token-expired' }
  | { type: 'error'; code: string; message: string };

export interface InitMessage {
  token: string;
  templateId: string | null;
}

export interface Bridge {
  emit(event: StudioEvent): void;
  /** Whether the studio runs in a frame at all (opened directly, it waits for nothing). */
  readonly framed: boolean;
}

export interface BridgeHandlers {
  onInit(init: InitMessage): void;
  onToken(token: string): void;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const validToken = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length < 8192;

export function createBridge(handlers: BridgeHandlers, win: Window = window): Bridge {
  const framed = win.parent !== win;
  let hostOrigin: string | null = null;
  const pending: StudioEvent[] = [];

  const post = (event: StudioEvent) => {
    if (hostOrigin) win.parent.postMessage({ type: 'platen:event', event }, hostOrigin);
    else pending.push(event);
  };

  win.addEventListener('message', (message: MessageEvent) => {
    if (!framed || message.source !== win.parent) return;
    if (hostOrigin !== null && message.origin !== hostOrigin) return;
    const data: unknown = message.data;
    if (!isRecord(data) || !validToken(data.token)) return;
    if (data.type === 'platen:init') {
      const first = hostOrigin === null;
      hostOrigin = message.origin;
      if (!first) {
        // A repeated init (the loader's handshake can send two) only refreshes the token.
        handlers.onToken(data.token);
        return;
      }
      const templateId = typeof data.templateId === 'string' && data.templateId ? data.templateId : null;
      handlers.onInit({ token: data.token, templateId });
      for (const event of pending.splice(0)) post(event);
    } else if (data.type === 'platen:token' && hostOrigin !== null) {
      handlers.onToken(data.token);
    }
  });

  // Tells the loader the listener is in place, so it can (re)send the init. Carries nothing secret,
  // which is why '*' is acceptable here and nowhere else.
  if (framed) win.parent.postMessage({ type: 'platen:hello' }, '*');

  return { emit: post, framed };
}
