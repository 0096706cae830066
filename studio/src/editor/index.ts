/**
 * The editor's entry: `mountEditor` renders the editor into the shell's element and returns the
 * handle of the fixed contract (contract.ts). The editor owns the document while it is open and
 * reports each committed edit through `options.onChange`; it makes no network call of its own.
 */
import { h, render } from 'preact';
import { pageDurationMs } from '../../../src/engine/browser.ts';
import { EditorActions } from './actions.ts';
import { EditorContext } from './context.ts';
import type { EditorHandle, EditorOptions, MountEditor } from './contract.ts';
import { activePage } from './doc-ops.ts';
import { EditorApp } from './EditorApp.tsx';
import { Playhead } from './playhead.ts';
import { PageRenderer } from './renderer.ts';
import { EditorStore } from './store.ts';
import './editor.css';

export const mountEditor: MountEditor = (root: HTMLElement, options: EditorOptions): EditorHandle => {
  const store = new EditorStore(options.document, options.readOnly, (doc) => options.onChange(doc));
  const actions = new EditorActions(store);
  const playhead = new Playhead(() => pageDurationMs(activePage(store.get().doc)));
  followEditing(store, playhead);
  // An image or font arriving changes what is drawn, not the document: a plain state ping redraws.
  const renderer = new PageRenderer({
    loadImage: options.loadImage,
    fonts: options.fonts,
    invalidate: () => store.set({}),
    ...(options.loadVideo ? { loadVideo: options.loadVideo } : {}),
  });
  render(
    h(EditorContext.Provider, { value: { store, actions, options, playhead } }, h(EditorApp, { renderer })),
    root,
  );
  return {
    getDocument: () => store.get().doc,
    setDocument: (document, readOnly) => store.replace(document, readOnly),
    setFindings: (findings) => store.set({ findings }),
    reveal: (pageId, elementId) => {
      if (activePage(store.get().doc).id !== pageId) actions.showPage(pageId);
      actions.reveal(elementId, false);
    },
    destroy: () => {
      playhead.dispose();
      render(null, root);
      renderer.dispose();
    },
  };
};

/**
 * The preview gives way to editing: selecting something or editing a text in place shows the
 * page's own fields again; another page starts its scene at 0; a shorter page keeps the playhead on it.
 */
function followEditing(store: EditorStore, playhead: Playhead): void {
  let last = store.get();
  store.subscribe((state) => {
    const before = last;
    last = state;
    const page = activePage(state.doc);
    if (page.id !== activePage(before.doc).id) return playhead.reset();
    const selected =
      state.selection.length !== before.selection.length ||
      state.selection.some((id, i) => id !== before.selection[i]);
    if (selected || (state.editingTextId && state.editingTextId !== before.editingTextId)) playhead.edit();
    playhead.fit();
  });
}
