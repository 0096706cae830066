/**
 * What every panel needs, passed down once: the store, the commands and the shell's options,
 * plus a hook that re-renders a component when the editor state changes.
 */
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { EditorActions } from './actions.ts';
import type { EditorOptions } from './contract.ts';
import type { EditorState, EditorStore } from './store.ts';

export interface EditorServices {
  store: EditorStore;
  actions: EditorActions;
  options: EditorOptions;
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
