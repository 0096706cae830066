import { describe, expect, it } from 'vitest';
import { createBlankDocument, type DesignDocument, elementSchema } from '../../../src/engine/browser.ts';
import { EditorActions } from './actions.ts';
import { activePage, addPage, deletePage, duplicatePage, moveElementTo, usedIds } from './doc-ops.ts';
import { createHistory, record, redo, undo } from './history.ts';
import { commandFor } from './shortcuts.ts';
import { EditorStore } from './store.ts';

function setup(readOnly = false) {
  const changes: DesignDocument[] = [];
  const doc = createBlankDocument(1000, 1000);
  const store = new EditorStore(doc, readOnly, (d) => changes.push(d));
  return { store, actions: new EditorActions(store), changes };
}

describe('history', () => {
  it('undoes and redoes, and drops the oldest entries past its limit', () => {
    let h = createHistory<number>(2);
    h = record(record(record(h, 1), 2), 3);
    expect(h.past).toEqual([2, 3]);
    const u = undo(h, 4);
    expect(u?.state).toBe(3);
    const r = u ? redo(u.history, 3) : null;
    expect(r?.state).toBe(4);
    expect(undo(createHistory<number>(), 0)).toBeNull();
  });
});

describe('store and actions', () => {
  it('reports each committed edit once, and undo and redo as edits too', () => {
    const { store, actions, changes } = setup();
    actions.add('rect');
    expect(changes).toHaveLength(1);
    const [id] = store.get().selection;
    expect(id).toBeDefined();
    // A drag sets drafts many times and commits once.
    for (let i = 1; i <= 5; i++) store.set({ draft: store.get().doc });
    actions.nudge(10, 0);
    expect(changes).toHaveLength(2);
    store.undo();
    expect(changes).toHaveLength(3);
    store.redo();
    expect(activePage(store.get().doc).elements[0]?.x).toBe(
      activePage(changes[1] as DesignDocument).elements[0]?.x,
    );
  });

  it('refuses a value the schema refuses, without committing', () => {
    const { store, actions, changes } = setup();
    actions.add('rect');
    const id = store.get().selection[0] ?? '';
    expect(actions.updateElement(id, { fill: 'not a colour' })).toBe(false);
    expect(changes).toHaveLength(1);
    expect(store.get().notice).toMatch(/fill/);
  });

  it('copies, pastes and duplicates with fresh ids', () => {
    const { store, actions } = setup();
    actions.add('text');
    actions.copy();
    actions.paste();
    actions.duplicateSelection();
    const ids = activePage(store.get().doc).elements.map((el) => el.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('changes nothing when read-only', () => {
    const { store, actions, changes } = setup(true);
    actions.add('rect');
    store.undo();
    expect(changes).toHaveLength(0);
    expect(activePage(store.get().doc).elements).toHaveLength(0);
  });
});

describe('document operations', () => {
  it('adds, duplicates (fresh ids), deletes (never the last) and reorders pages', () => {
    let doc = createBlankDocument(100, 100);
    const rect = elementSchema.parse({ id: 'r', type: 'rect', x: 0, y: 0, width: 1, height: 1 });
    doc = { ...doc, pages: [{ ...activePage(doc), elements: [rect] }] };
    doc = duplicatePage(doc, 'page1');
    expect(doc.pages).toHaveLength(2);
    const ids = [...usedIds(doc)];
    expect(new Set(ids).size).toBe(ids.length);
    doc = addPage(doc);
    expect(doc.pages).toHaveLength(3);
    doc = deletePage(deletePage(deletePage(doc, doc.pages[0]?.id ?? ''), doc.activePageId), doc.activePageId);
    expect(doc.pages.length).toBeGreaterThanOrEqual(1);
  });

  it('moves an element in paint order', () => {
    let doc = createBlankDocument(100, 100);
    const els = ['a', 'b', 'c'].map((id) =>
      elementSchema.parse({ id, type: 'rect', x: 0, y: 0, width: 1, height: 1 }),
    );
    doc = { ...doc, pages: [{ ...activePage(doc), elements: els }] };
    expect(activePage(moveElementTo(doc, 'a', 2)).elements.map((e) => e.id)).toEqual(['b', 'c', 'a']);
  });
});

describe('shortcuts', () => {
  const key = (k: string, mods: Partial<{ ctrlKey: boolean; shiftKey: boolean; metaKey: boolean }> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });
  it('maps the usual keys, and leaves fields their own keys', () => {
    expect(commandFor(key('z', { ctrlKey: true }), false)).toEqual({ kind: 'undo' });
    expect(commandFor(key('Z', { metaKey: true, shiftKey: true }), false)).toEqual({ kind: 'redo' });
    expect(commandFor(key('y', { ctrlKey: true }), false)).toEqual({ kind: 'redo' });
    expect(commandFor(key('ArrowLeft', { shiftKey: true }), false)).toEqual({
      kind: 'nudge',
      dx: -10,
      dy: 0,
    });
    expect(commandFor(key('Backspace'), true)).toBeNull();
    expect(commandFor(key('=', { ctrlKey: true }), true)).toEqual({ kind: 'zoom-in' });
  });
});
