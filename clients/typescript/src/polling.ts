/**
 * Waiting for work the service does in the background (a render, a batch): read its state every
 * `pollIntervalMs` until it settles, within `timeoutMs`, and stop at once when `signal` aborts
 * (rejecting with the signal's reason, as `fetch` does). No timers outlive the wait.
 */
import { PlatenTimeoutError } from './errors.ts';

export interface WaitOptions {
  /** The pause between two reads of the state. */
  pollIntervalMs?: number;
  /** How long to wait in all before giving up with `PlatenTimeoutError`. */
  timeoutMs?: number;
  /** Aborts the wait (and the request in flight). */
  signal?: AbortSignal;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/**
 * Reads `read()` until `settled` makes something of it (anything but `undefined`), which it returns.
 * `what` names the awaited thing in the timeout's message.
 */
export async function pollUntil<State, Outcome>(
  what: string,
  read: (signal: AbortSignal | undefined) => Promise<State>,
  settled: (state: State) => Outcome | undefined,
  options: WaitOptions,
  defaults: { pollIntervalMs: number; timeoutMs: number },
): Promise<Outcome> {
  const interval = options.pollIntervalMs ?? defaults.pollIntervalMs;
  const timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const outcome = settled(await read(options.signal));
    if (outcome !== undefined) return outcome;
    if (Date.now() + interval > deadline) throw new PlatenTimeoutError(what, timeoutMs);
    await pause(interval, options.signal);
  }
}
