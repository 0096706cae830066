/**
 * The editor's state and the one place it changes. The committed document moves only through
 * `commit`, `undo` and `redo`, each of which records history and calls `onChange` exactly once;
 * a drag works on `draft` (drawn, never saved) and commits once at the end. No DOM here, so the
 * rules are unit-tested in Node.
 */
import type { DesignDocument } from '../../../src/engine/browser.ts';
import type { EditorFinding } from './contract.ts';
import { activePage } from './doc-ops.ts';
import type { Rect } from './geometry.ts';
import { createHistory, type History, record, redo, undo } from './history.ts';
import type { Guide } from './snapping.ts';
import { allElements, locate } from './tree-ops.ts';

export interface EditorState {
  /** The committed document, what onChange last reported. */
  doc: DesignDocument;
  /** A drag in progress: drawn instead of `doc`, committed at pointer up. */
  draft: DesignDocument | null;
  selection: readonly string[];
  /**
   * The group the person has entered (double-click), or null for the page: pointer picks,
   * marquee, select-all and new pastes work among that group's children, in its coordinates.
   */
  scopeId: string | null;
  readOnly: boolean;
  /** Screen pixels (CSS) per page unit. */
  zoom: number;
  guides: readonly Guide[];
  marquee: Rect | null;
  editingTextId: string | null;
  /** Sample values for variables; only ever applied to what is drawn. */
  samples: Readonly<Record<string, string>>;
  previewVariables: boolean;
  history: History<DesignDocument>;
  /** A message for the status line (a refused value, say). */
  notice: string | null;
  /** The shell's latest preflight findings (contract.ts), marked on their elements. */
  findings: readonly EditorFinding[];
}

type Listener = (state: EditorState) => void;

export class EditorStore {
  private state: EditorState;
  private readonly listeners = new Set<Listener>();

  constructor(
    doc: DesignDocument,
    readOnly: boolean,
    private readonly onChange: (doc: DesignDocument) => void,
  ) {
    this.state = {
      doc,
      draft: null,
      selection: [],
      scopeId: null,
      readOnly,
      zoom: 1,
      guides: [],
      marquee: null,
      editingTextId: null,
      samples: {},
      findings: [],
      previewVariables: false,
      history: createHistory(),
      notice: null,
    };
  }

  get(): EditorState {
    return this.state;
  }

  /** The document to draw: the drag draft when there is one. */
  shown(): DesignDocument {
    return this.state.draft ?? this.state.doc;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  set(patch: Partial<EditorState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener(this.state);
  }

  /** Commits an edit: history, onChange once, selection kept to ids that still exist. */
  commit(next: DesignDocument, selection?: readonly string[]): void {
    const { doc, readOnly, history } = this.state;
    if (readOnly) return;
    if (next === doc) {
      this.set({ draft: null, guides: [], ...(selection ? { selection } : {}) });
      return;
    }
    this.set({
      doc: next,
      draft: null,
      guides: [],
      history: record(history, doc),
      selection: existing(next, selection ?? this.state.selection),
      scopeId: existingScope(next, this.state.scopeId),
      notice: null,
    });
    this.onChange(next);
  }

  /**
   * A saved change that is not an edit to undo (switching the active page): onChange without a
   * history entry. Read-only viewers still switch pages, without saving.
   */
  navigate(next: DesignDocument): void {
    this.set({ doc: next, draft: null, editingTextId: null, selection: [], scopeId: null });
    if (!this.state.readOnly) this.onChange(next);
  }

  undo(): void {
    if (this.state.readOnly) return;
    const step = undo(this.state.history, this.state.doc);
    if (step) this.restore(step.state, step.history);
  }

  redo(): void {
    if (this.state.readOnly) return;
    const step = redo(this.state.history, this.state.doc);
    if (step) this.restore(step.state, step.history);
  }

  private restore(doc: DesignDocument, history: History<DesignDocument>): void {
    this.set({
      doc,
      history,
      draft: null,
      editingTextId: null,
      selection: existing(doc, this.state.selection),
      scopeId: existingScope(doc, this.state.scopeId),
    });
    this.onChange(doc);
  }

  /** Replaces the document from outside (reload, conflict): no onChange, history cleared. */
  replace(doc: DesignDocument, readOnly = this.state.readOnly): void {
    this.set({
      doc,
      readOnly,
      draft: null,
      editingTextId: null,
      selection: existing(doc, this.state.selection),
      scopeId: existingScope(doc, this.state.scopeId),
      history: createHistory(),
    });
  }

  select(ids: readonly string[]): void {
    this.set({ selection: [...new Set(ids)] });
  }
}

/** The selection limited to elements of the active page (at any depth). */
function existing(doc: DesignDocument, ids: readonly string[]): string[] {
  const present = new Set(allElements(activePage(doc).elements).map((el) => el.id));
  return ids.filter((id) => present.has(id));
}

/** The entered group, if it is still a group of the active page. */
function existingScope(doc: DesignDocument, scopeId: string | null): string | null {
  if (scopeId === null) return null;
  return locate(activePage(doc).elements, scopeId)?.element.type === 'group' ? scopeId : null;
}
