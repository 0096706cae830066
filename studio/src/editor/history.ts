/**
 * Undo and redo over immutable documents: each entry is a whole document, which costs little
 * because edits share every untouched page and element with the previous version. Bounded, so a
 * long session cannot grow without end; the oldest entries drop first.
 */

export interface History<T> {
  readonly past: readonly T[];
  readonly future: readonly T[];
  readonly limit: number;
}

export const DEFAULT_HISTORY_LIMIT = 100;

export function createHistory<T>(limit = DEFAULT_HISTORY_LIMIT): History<T> {
  return { past: [], future: [], limit: Math.max(1, limit) };
}

/** Records `previous` as the state before a new edit; clears the redo branch. */
export function record<T>(history: History<T>, previous: T): History<T> {
  const past = [...history.past, previous];
  return { ...history, past: past.length > history.limit ? past.slice(-history.limit) : past, future: [] };
}

/** The state to restore and the history after undoing from `current`, or null when nothing to undo. */
export function undo<T>(history: History<T>, current: T): { state: T; history: History<T> } | null {
  const state = history.past.at(-1);
  if (state === undefined) return null;
  return {
    state,
    history: { ...history, past: history.past.slice(0, -1), future: [current, ...history.future] },
  };
}

export function redo<T>(history: History<T>, current: T): { state: T; history: History<T> } | null {
  const [state, ...future] = history.future;
  if (state === undefined) return null;
  return { state, history: { ...history, past: [...history.past, current], future } };
}
