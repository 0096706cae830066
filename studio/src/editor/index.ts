/**
 * The editor's entry: `mountEditor` renders the editor into the shell's element and returns the
 * handle of the fixed contract (contract.ts). The editor owns the document while it is open and
 * reports each committed edit through `options.onChange`; it makes no network call of its own.
 */
import { h, render } from 'preact';
import { EditorActions } from './actions.ts';
import { EditorContext } from './context.ts';
import type { EditorHandle, EditorOptions, MountEditor } from './contract.ts';
import { EditorApp } from './EditorApp.tsx';
import { PageRenderer } from './renderer.ts';
import { EditorStore } from './store.ts';
import './editor.css';

export const mountEditor: MountEditor = (root: HTMLElement, options: EditorOptions): EditorHandle => {
  const store = new EditorStore(options.document, options.readOnly, (doc) => options.onChange(doc));
  const actions = new EditorActions(store);
  // An image or font arriving changes what is drawn, not the document: a plain state ping redraws.
  const renderer = new PageRenderer({
    loadImage: options.loadImage,
    fonts: options.fonts,
    invalidate: () => store.set({}),
  });
  render(h(EditorContext.Provider, { value: { store, actions, options } }, h(EditorApp, { renderer })), root);
  return {
    getDocument: () => store.get().doc,
    setDocument: (document, readOnly) => store.replace(document, readOnly),
    destroy: () => render(null, root),
  };
};
