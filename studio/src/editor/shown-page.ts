/**
 * The page the canvas shows: the drag draft or the document, with modifications applied exactly
 * as the server applies them before every render (`{}` fills placeholders from the document's
 * defaults; the variables panel's samples when previewing), and the element being edited in place
 * hidden under its textarea. Page objects the modifications left alone are kept identical, so the
 * renderer's per-page layout memo still hits.
 */
import { applyModifications, type DesignDocument, type Page } from '../../../src/engine/browser.ts';
import { activePage } from './doc-ops.ts';
import { replaceInTree } from './tree-ops.ts';

export interface ShownPage {
  page: Page;
  /** Every page as drawn (modified alike; `page` in its place), for previews of transitions. */
  pages: readonly Page[];
  /** Where `page` is in `pages`. */
  activeIndex: number;
  /** Why the samples could not be applied (too long for a property, say), or null. */
  problem: string | null;
}

export class ShownPageCache {
  private last: {
    doc: DesignDocument;
    mods: Readonly<Record<string, string>>;
    editing: string | null;
    shown: ShownPage;
  } | null = null;

  get(doc: DesignDocument, mods: Readonly<Record<string, string>>, editing: string | null): ShownPage {
    const last = this.last;
    if (last && last.doc === doc && last.mods === mods && last.editing === editing) return last.shown;
    const shown = compute(doc, mods, editing);
    this.last = { doc, mods, editing, shown };
    return shown;
  }
}

function compute(
  doc: DesignDocument,
  mods: Readonly<Record<string, string>>,
  editing: string | null,
): ShownPage {
  const original = activePage(doc);
  const result = applyModifications(doc, { ...mods });
  let page = original;
  let pages: readonly Page[] = doc.pages;
  let problem: string | null = null;
  if (result.ok) {
    const modified = activePage(result.document);
    const same =
      modified.elements.length === original.elements.length &&
      modified.elements.every((el, i) => el === original.elements[i]);
    page = same ? original : modified;
    pages = result.document.pages;
  } else {
    problem = result.issues[0]
      ? `${result.issues[0].path}: ${result.issues[0].message}`
      : 'samples not applied';
  }
  if (editing)
    page = {
      ...page,
      elements: replaceInTree(page.elements, (el) =>
        el.id === editing ? { ...el, visible: false } : undefined,
      ),
    };
  const activeIndex = Math.max(
    0,
    doc.pages.findIndex((p) => p.id === original.id),
  );
  return { page, pages: pages.map((p, i) => (i === activeIndex ? page : p)), activeIndex, problem };
}
