/**
 * Pure operations on the document the editor holds: read the active page, replace elements,
 * add, delete, duplicate, paste and reorder elements, and add, duplicate, delete, reorder and
 * switch pages. Ids stay unique across the whole document, as validation requires. Elements may sit
 * inside groups: an id names one element at any depth, and new or moved elements stay in the list
 * (page or group) they were in. Every function returns a new document and shares what it did not
 * touch, which keeps undo cheap.
 */
import type { DesignDocument, Element, Page } from '../../../src/engine/browser.ts';
import { allElements, locate, removeFromTree, replaceInTree, updateList } from './tree-ops.ts';

export function activePage(doc: DesignDocument): Page {
  const page = doc.pages.find((p) => p.id === doc.activePageId) ?? doc.pages[0];
  if (!page) throw new Error('a design document has at least one page');
  return page;
}

/** Every id in use, pages and elements alike. */
export function usedIds(doc: DesignDocument): Set<string> {
  const ids = new Set<string>();
  for (const page of doc.pages) {
    ids.add(page.id);
    for (const el of allElements(page.elements)) ids.add(el.id);
  }
  return ids;
}

/** `prefix-N` with the smallest N not in `used`; the id is added to `used`. */
export function freshId(prefix: string, used: Set<string>): string {
  const base = prefix.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40) || 'el';
  let n = 1;
  while (used.has(`${base}-${n}`)) n++;
  const id = `${base}-${n}`;
  used.add(id);
  return id;
}

export function updatePage(doc: DesignDocument, pageId: string, fn: (page: Page) => Page): DesignDocument {
  return { ...doc, pages: doc.pages.map((p) => (p.id === pageId ? fn(p) : p)) };
}

export function updateActivePage(doc: DesignDocument, fn: (page: Page) => Page): DesignDocument {
  return updatePage(doc, activePage(doc).id, fn);
}

/** Replaces elements of the active page (at any depth) by id with the given versions. */
export function replaceElements(doc: DesignDocument, replacements: readonly Element[]): DesignDocument {
  if (replacements.length === 0) return doc;
  const byId = new Map(replacements.map((el) => [el.id, el]));
  return updateActivePage(doc, (page) => ({
    ...page,
    elements: replaceInTree(page.elements, (el) => byId.get(el.id)),
  }));
}

export function mapElements(
  doc: DesignDocument,
  ids: readonly string[],
  fn: (el: Element) => Element,
): DesignDocument {
  const wanted = new Set(ids);
  return updateActivePage(doc, (page) => ({
    ...page,
    elements: replaceInTree(page.elements, (el) => (wanted.has(el.id) ? fn(el) : undefined)),
  }));
}

/** Adds elements on top of the page's list, or of group `parentId`'s children. */
export function addElements(
  doc: DesignDocument,
  elements: readonly Element[],
  parentId: string | null = null,
): DesignDocument {
  return updateActivePage(doc, (page) => ({
    ...page,
    elements: updateList(page.elements, parentId, (list) => [...list, ...elements]),
  }));
}

export function deleteElements(doc: DesignDocument, ids: readonly string[]): DesignDocument {
  const gone = new Set(ids);
  return updateActivePage(doc, (page) => ({
    ...page,
    elements: removeFromTree(page.elements, (el) => gone.has(el.id)),
  }));
}

/** A deep copy of `el` whose ids (its children's too) are fresh in `used`. */
export function withFreshElementIds(el: Element, used: Set<string>): Element {
  const copy = { ...el, id: freshId(el.type, used) };
  return copy.type === 'group'
    ? { ...copy, elements: copy.elements.map((c) => withFreshElementIds(c, used)) }
    : copy;
}

/** Copies of `elements` with fresh ids, offset by `offset` units; returns the copies. */
export function cloneElements(doc: DesignDocument, elements: readonly Element[], offset: number): Element[] {
  const used = usedIds(doc);
  return elements.map((el) => {
    const copy = withFreshElementIds(structuredClone(el), used);
    return { ...copy, x: el.x + offset, y: el.y + offset };
  });
}

/** Duplicates the given elements (one list's) above the topmost of them, in the same list. */
export function duplicateElements(
  doc: DesignDocument,
  ids: readonly string[],
  offset = 20,
): { doc: DesignDocument; ids: string[] } {
  const elements = activePage(doc).elements;
  const found = ids.map((id) => locate(elements, id)).filter((f) => f !== null);
  const parentId = found[0]?.parent?.id ?? null;
  const originals = found
    .filter((f) => (f.parent?.id ?? null) === parentId)
    .sort((a, b) => a.index - b.index)
    .map((f) => f.element);
  const copies = cloneElements(doc, originals, offset);
  return { doc: addElements(doc, copies, parentId), ids: copies.map((el) => el.id) };
}

/** Moves an element to `index` in paint order (0 is the bottom) within its own list. */
export function moveElementTo(doc: DesignDocument, id: string, index: number): DesignDocument {
  const found = locate(activePage(doc).elements, id);
  if (!found) return doc;
  const next = updateActivePage(doc, (page) => ({
    ...page,
    elements: updateList(page.elements, found.parent?.id ?? null, (list) => {
      const rest = list.filter((el) => el.id !== id);
      const to = Math.max(0, Math.min(rest.length, index));
      if (to === found.index) return list as Element[];
      return [...rest.slice(0, to), found.element, ...rest.slice(to)];
    }),
  }));
  return activePage(next).elements === activePage(doc).elements ? doc : next;
}

export function setActivePage(doc: DesignDocument, pageId: string): DesignDocument {
  return doc.pages.some((p) => p.id === pageId) ? { ...doc, activePageId: pageId } : doc;
}

/** Inserts `page` after the active page and makes it active. */
export function insertPage(doc: DesignDocument, page: Page): DesignDocument {
  const at = doc.pages.findIndex((p) => p.id === activePage(doc).id) + 1;
  return { ...doc, activePageId: page.id, pages: [...doc.pages.slice(0, at), page, ...doc.pages.slice(at)] };
}

/** A blank page the size of the active one. */
export function addPage(doc: DesignDocument): DesignDocument {
  const current = activePage(doc);
  const id = freshId('page', usedIds(doc));
  return insertPage(doc, {
    id,
    name: `Page ${doc.pages.length + 1}`,
    width: current.width,
    height: current.height,
    background: '#ffffff',
    elements: [],
  });
}

/** A copy of `page` with fresh page and element ids, so it can join `doc`. */
export function withFreshIds(doc: DesignDocument, page: Page, name?: string): Page {
  const used = usedIds(doc);
  const copy = structuredClone(page);
  return {
    ...copy,
    id: freshId('page', used),
    ...(name !== undefined ? { name } : {}),
    elements: copy.elements.map((el) => withFreshElementIds(el, used)),
  };
}

export function duplicatePage(doc: DesignDocument, pageId: string): DesignDocument {
  const page = doc.pages.find((p) => p.id === pageId);
  if (!page) return doc;
  const copy = withFreshIds(setActivePage(doc, pageId), page, `${page.name ?? 'Page'} copy`);
  return insertPage(setActivePage(doc, pageId), copy);
}

/** Deletes a page unless it is the last one; the active page moves to a neighbour. */
export function deletePage(doc: DesignDocument, pageId: string): DesignDocument {
  if (doc.pages.length <= 1) return doc;
  const index = doc.pages.findIndex((p) => p.id === pageId);
  if (index < 0) return doc;
  const pages = doc.pages.filter((p) => p.id !== pageId);
  const neighbour = pages[Math.min(index, pages.length - 1)];
  const activePageId = doc.activePageId === pageId ? (neighbour?.id ?? '') : doc.activePageId;
  return { ...doc, pages, activePageId };
}

export function movePage(doc: DesignDocument, pageId: string, index: number): DesignDocument {
  const from = doc.pages.findIndex((p) => p.id === pageId);
  const page = doc.pages[from];
  if (!page) return doc;
  const rest = doc.pages.filter((p) => p.id !== pageId);
  const to = Math.max(0, Math.min(rest.length, index));
  if (to === from) return doc;
  return { ...doc, pages: [...rest.slice(0, to), page, ...rest.slice(to)] };
}
