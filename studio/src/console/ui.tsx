/** Pieces every screen uses: loading and empty states, errors in plain words with their code, copy. */
import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './client.ts';

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Runs `load` when `key` changes (and on reload), keeping the last data while reloading. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) => live && setState({ data: null, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

const PLAIN: Record<string, string> = {
  NOT_FOUND: 'This does not exist, or is not yours to see.',
  UNAUTHORIZED: 'Your session has ended. Sign in again.',
  INSUFFICIENT_CREDITS: 'The workspace does not have enough credits.',
  SUBSCRIPTION_SUSPENDED: 'This workspace is suspended.',
  VALIDATION_FAILED: 'Some of the values are not valid.',
  CONFLICT: 'That conflicts with the current state. Reload and try again.',
  RATE_LIMITED: 'Too many requests. Wait a moment and try again.',
  NETWORK: 'The service could not be reached. Check the connection and try again.',
};

/**
 * An error in plain words, its message and its code. `plain` words a code for this screen; `null`
 * shows the service's own message alone (a sentence written for people, such as a 409's reason).
 */
export function ErrorNote({ error, plain: own }: { error: unknown; plain?: Record<string, string | null> }) {
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : 'ERROR';
  const detail = error instanceof Error ? error.message : String(error);
  const plain = (own && code in own ? own[code] : PLAIN[code]) ?? detail;
  return (
    <p class="console-error" role="alert">
      {plain}
      {plain !== detail && detail ? ` ${detail}` : ''} <code>{code}</code>
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="console-muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="console-empty">{children}</div>;
}

/** Shows a loaded value: loading, error or the content. */
export function Show<T>(props: {
  loaded: Loaded<T>;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  const { loaded } = props;
  if (loaded.error) return <ErrorNote error={loaded.error} />;
  if (loaded.data === null) return <Loading what={props.what} />;
  return <>{props.children(loaded.data)}</>;
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Without clipboard access (http, an old browser) the text is selectable beside the button.
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <>
      <button type="button" onClick={copy} aria-label={label}>
        Copy
      </button>
      {copied && (
        <span role="status" class="console-ok">
          Copied
        </span>
      )}
    </>
  );
}

/** A secret shown once (a new key, a webhook secret, a reset link), with a copy button. */
export function SecretOnce(props: {
  title: string;
  value: string;
  onDone(): void;
  children?: ComponentChildren;
}) {
  const { title, value, onDone } = props;
  return (
    <section class="console-secret" aria-label={title}>
      <h3>{title}</h3>
      <p>Copy it now: it is shown only this once.</p>
      {props.children}
      <div class="console-row">
        <code class="console-secret-value" data-testid="secret">
          {value}
        </code>
        <CopyButton text={value} label={`Copy ${title.toLowerCase()}`} />
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

/** Runs an action, keeping its error to show; returns whether it succeeded. */
export function useAction(): [unknown, boolean, (run: () => Promise<void>) => Promise<boolean>] {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await run();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return [error, busy, act];
}

/**
 * Calls `run` every `ms` while the component is shown and the page is visible (a log that follows
 * new events without a click).
 */
export function useEvery(ms: number, run: () => void): void {
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') latest.current();
    }, ms);
    return () => clearInterval(timer);
  }, [ms]);
}

/**
 * Reads the open workspace again (its balance and state, in the line above every workspace
 * screen), for a screen whose action changes them: a render spends credits.
 */
export const RefreshWorkspace = createContext<() => void>(() => undefined);

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** A labelled group of checkboxes choosing some of `options` (API key scopes, webhook events). */
export function Choices(props: {
  legend: string;
  options: readonly string[];
  chosen: readonly string[];
  onChange(chosen: string[]): void;
}) {
  const toggle = (option: string) =>
    props.onChange(
      props.chosen.includes(option) ? props.chosen.filter((o) => o !== option) : [...props.chosen, option],
    );
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.options.map((option) => (
        <label key={option} class="console-check">
          <input type="checkbox" checked={props.chosen.includes(option)} onChange={() => toggle(option)} />{' '}
          {option}
        </label>
      ))}
    </fieldset>
  );
}
