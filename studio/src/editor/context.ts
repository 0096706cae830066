/**
 * What every panel needs, passed down once: the store, the commands, the shell's options and the
 * motion preview's playhead, plus hooks that re-render a component when the editor state (or the
 * part of the playhead it shows) changes.
 */
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { EditorActions } from './actions.ts';
import type { EditorOptions } from './contract.ts';
import type { Playhead, PlayheadState } from './playhead.ts';
import type { EditorState, EditorStore } from './store.ts';

export interface EditorServices {
  store: EditorStore;
  actions: EditorActions;
  options: EditorOptions;
  playhead: Playhead;
}

export const EditorContext = createContext<EditorServices | null>(null);

export function useServices(): EditorServices {
  const services = useContext(EditorContext);
  if (!services) throw new Error('editor components render inside EditorContext');
  return services;
}

/** The current editor state; the component re-renders on every store change. */
export function useEditorState(): EditorState {
  const { store } = useServices();
  const [state, setState] = useState(store.get());
  useEffect(() => {
    setState(store.get());
    return store.subscribe(setState);
  }, [store]);
  return state;
}

/**
 * A value picked from the playhead; the component re-renders only when that value changes (the
 * time changes every frame while playing, and most components show only whether it plays).
 */
export function usePlayhead<T>(pick: (state: PlayheadState) => T): T {
  const { playhead } = useServices();
  const [value, setValue] = useState(() => pick(playhead.get()));
  useEffect(() => {
    setValue(() => pick(playhead.get()));
    return playhead.subscribe((state) => setValue(() => pick(state)));
    // `pick` is a selector written inline: following its identity would resubscribe every render.
  }, [playhead]);
  return value;
}
