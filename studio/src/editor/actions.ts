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
import { barcodeValueRefusal } from './barcode-ops.ts';
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
import { groupElements, ungroupElement } from './grouping.ts';
import type { EditorStore } from './store.ts';
import { moveElement } from './transform.ts';
import { locate, scopeList } from './tree-ops.ts';

/** `{...a, ...b}` without the keys `b` sets to undefined: a field cleared in a panel is left out. */
function merged(a: object, b: Partial<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a, ...b };
  for (const [key, value] of Object.entries(b)) if (value === undefined) delete out[key];
  return out;
}

export class EditorActions {
  /** Copied elements live in the editor, not the system clipboard: they are document data. */
  private clipboard: Element[] = [];

  constructor(private readonly store: EditorStore) {}

  private get doc(): DesignDocument {
    return this.store.get().doc;
  }

  private selected(): Element[] {
    const elements = activePage(this.doc).elements;
    return this.store
      .get()
      .selection.map((id) => locate(elements, id)?.element)
      .filter((el): el is Element => el !== undefined);
  }

  private find(id: string): Element | undefined {
    return locate(activePage(this.doc).elements, id)?.element;
  }

  /** Selected elements a pointer or key may change (locked ones stay put). */
  private editable(): string[] {
    return this.selected()
      .filter((el) => !el.locked)
      .map((el) => el.id);
  }

  add(type: AddableType, options: NewElementOptions = {}): void {
    const el = createElement(this.doc, activePage(this.doc), type, options);
    // New elements go on the page, centred: leave an entered group.
    this.store.set({ scopeId: null });
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
      addElements(this.doc, copies, this.store.get().scopeId),
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
      scopeList(activePage(this.doc).elements, this.store.get().scopeId)
        .filter((el) => el.visible && !el.locked)
        .map((el) => el.id),
    );
  }

  /** Wraps the selection in a group (Ctrl/Cmd+G); says why not when it cannot. */
  group(): void {
    const ids = this.editable();
    if (ids.length === 0) return;
    const result = groupElements(this.doc, ids);
    if (!result.ok) this.store.set({ notice: result.reason });
    else this.store.commit(result.doc, result.selection);
  }

  /** Replaces each selected group by its children (Ctrl/Cmd+Shift+G), keeping them where they are drawn. */
  ungroup(): void {
    const groups = this.selected().filter((el) => el.type === 'group' && !el.locked);
    if (groups.length === 0) {
      this.store.set({ notice: 'Select a group to ungroup.' });
      return;
    }
    let doc = this.doc;
    const selection: string[] = [];
    for (const group of groups) {
      const result = ungroupElement(doc, group.id);
      if (!result.ok) {
        this.store.set({ notice: result.reason });
        return;
      }
      doc = result.doc;
      selection.push(...result.selection);
    }
    this.store.commit(doc, selection);
  }

  /** Enters a group: its children become what pointer, marquee and select-all pick among. */
  enterGroup(id: string, select: readonly string[] = []): void {
    if (this.find(id)?.type === 'group') this.store.set({ scopeId: id, selection: [...select] });
  }

  /** Leaves the entered group, selecting it; false when on the page already. */
  leaveGroup(): boolean {
    const { scopeId } = this.store.get();
    if (scopeId === null) return false;
    const parent = locate(activePage(this.doc).elements, scopeId)?.parent ?? null;
    this.store.set({ scopeId: parent?.id ?? null, selection: [scopeId] });
    return true;
  }

  /** Selects an element wherever it is, entering the group that holds it. */
  reveal(id: string, extend = false): void {
    const found = locate(activePage(this.doc).elements, id);
    if (!found) return;
    const scopeId = found.parent?.id ?? null;
    const { selection, scopeId: current } = this.store.get();
    if (extend && scopeId === current) {
      this.store.select(selection.includes(id) ? selection.filter((s) => s !== id) : [...selection, id]);
      return;
    }
    this.store.set({ scopeId, selection: [id] });
  }

  /** Applies a property patch to one element if the schema accepts the result; else says why. */
  updateElement(id: string, patch: Partial<Record<string, unknown>>): boolean {
    const current = this.find(id);
    if (!current) return false;
    const parsed = elementSchema.safeParse(merged(current, patch));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.store.set({ notice: `${issue?.path.join('.') ?? 'value'}: ${issue?.message ?? 'not valid'}` });
      return false;
    }
    // A barcode value its format refuses would fail every render (422): refuse it here, saying why.
    const refusal =
      parsed.data.type === 'barcode' ? barcodeValueRefusal(parsed.data.format, parsed.data.value) : null;
    if (refusal) {
      this.store.set({ notice: refusal });
      return false;
    }
    this.store.commit(replaceElements(this.doc, [parsed.data]));
    return true;
  }

  updatePage(patch: Partial<Record<string, unknown>>): boolean {
    const current = activePage(this.doc);
    const parsed = pageSchema.safeParse(merged(current, patch));
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
    const el = this.find(id);
    if (el) this.updateElement(id, { [key]: !el[key] });
  }

  /** Moves an element `delta` steps up (towards the top of the stack) or down. */
  restack(id: string, delta: number): void {
    const found = locate(activePage(this.doc).elements, id);
    if (found) this.store.commit(moveElementTo(this.doc, id, found.index + delta));
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
