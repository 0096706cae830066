/**
 * Editing commands shared by the toolbar, the panels and the keyboard: each reads the store,
 * applies a pure document operation and commits once. Commands that edit do nothing when the
 * editor is read-only (the store refuses the commit as well; the controls are disabled too).
 */
import {
  type DesignDocument,
  type Element,
  elementSchema,
  type Page,
  pageSchema,
} from '../../../src/engine/browser.ts';
import {
  activePage,
  addElements,
  cloneElements,
  deleteElements,
  duplicateElements,
  mapElements,
  moveElementTo,
  replaceElements,
  setActivePage,
  updateActivePage,
} from './doc-ops.ts';
import { type AddableType, createElement, type NewElementOptions } from './factory.ts';
import type { EditorStore } from './store.ts';
import { moveElement } from './transform.ts';

export class EditorActions {
  /** Copied elements live in the editor, not the system clipboard: they are document data. */
  private clipboard: Element[] = [];

  constructor(private readonly store: EditorStore) {}

  private get doc(): DesignDocument {
    return this.store.get().doc;
  }

  private selected(): Element[] {
    const ids = new Set(this.store.get().selection);
    return activePage(this.doc).elements.filter((el) => ids.has(el.id));
  }

  /** Selected elements a pointer or key may change (locked ones stay put). */
  private editable(): string[] {
    return this.selected()
      .filter((el) => !el.locked)
      .map((el) => el.id);
  }

  add(type: AddableType, options: NewElementOptions = {}): void {
    const el = createElement(this.doc, activePage(this.doc), type, options);
    this.store.commit(addElements(this.doc, [el]), [el.id]);
  }

  deleteSelection(): void {
    const ids = this.editable();
    if (ids.length > 0) this.store.commit(deleteElements(this.doc, ids), []);
  }

  duplicateSelection(): void {
    const ids = this.store.get().selection;
    if (ids.length === 0) return;
    const result = duplicateElements(this.doc, ids);
    this.store.commit(result.doc, result.ids);
  }

  copy(): void {
    this.clipboard = structuredClone(this.selected());
  }

  paste(): void {
    if (this.clipboard.length === 0) return;
    const copies = cloneElements(this.doc, this.clipboard, 20);
    this.store.commit(
      addElements(this.doc, copies),
      copies.map((el) => el.id),
    );
    // The next paste lands a step further, as in every design tool.
    this.clipboard = this.clipboard.map((el) => moveElement(el, 20, 20));
  }

  nudge(dx: number, dy: number): void {
    const ids = this.editable();
    if (ids.length > 0) this.store.commit(mapElements(this.doc, ids, (el) => moveElement(el, dx, dy)));
  }

  selectAll(): void {
    this.store.select(
      activePage(this.doc)
        .elements.filter((el) => el.visible && !el.locked)
        .map((el) => el.id),
    );
  }

  /** Applies a property patch to one element if the schema accepts the result; else says why. */
  updateElement(id: string, patch: Partial<Record<string, unknown>>): boolean {
    const current = activePage(this.doc).elements.find((el) => el.id === id);
    if (!current) return false;
    const parsed = elementSchema.safeParse({ ...current, ...patch });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.store.set({ notice: `${issue?.path.join('.') ?? 'value'}: ${issue?.message ?? 'not valid'}` });
      return false;
    }
    this.store.commit(replaceElements(this.doc, [parsed.data]));
    return true;
  }

  updatePage(patch: Partial<Record<string, unknown>>): boolean {
    const current = activePage(this.doc);
    const parsed = pageSchema.safeParse({ ...current, ...patch });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.store.set({ notice: `page ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'not valid'}` });
      return false;
    }
    const next: Page = parsed.data;
    this.store.commit(updateActivePage(this.doc, () => next));
    return true;
  }

  setVariableDefault(name: string, value: string | null): void {
    const variables = { ...this.doc.variables };
    if (value === null) delete variables[name];
    else variables[name] = value;
    this.store.commit({ ...this.doc, variables });
  }

  toggle(id: string, key: 'visible' | 'locked'): void {
    const el = activePage(this.doc).elements.find((e) => e.id === id);
    if (el) this.updateElement(id, { [key]: !el[key] });
  }

  /** Moves an element `delta` steps up (towards the top of the stack) or down. */
  restack(id: string, delta: number): void {
    const index = activePage(this.doc).elements.findIndex((el) => el.id === id);
    if (index >= 0) this.store.commit(moveElementTo(this.doc, id, index + delta));
  }

  moveLayerTo(id: string, index: number): void {
    this.store.commit(moveElementTo(this.doc, id, index));
  }

  /** Switching pages is saved (activePageId is part of the document) but not an undo step. */
  showPage(pageId: string): void {
    const next = setActivePage(this.doc, pageId);
    if (next !== this.doc) this.store.navigate(next);
  }
}
