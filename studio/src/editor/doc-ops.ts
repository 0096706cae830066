/**
 * Pure operations on the document the editor holds: read the active page, replace elements,
 * add, delete, duplicate, paste and reorder elements, and add, duplicate, delete, reorder and
 * switch pages. Ids stay unique across the whole document, as validation requires. Every function
 * returns a new document and shares what it did not touch, which keeps undo cheap.
 */
import type { DesignDocument, Element, Page } from '../../../src/engine/browser.ts';

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
    for (const el of page.elements) ids.add(el.id);
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

/** Replaces elements of the active page by id with the given versions. */
export function replaceElements(doc: DesignDocument, replacements: readonly Element[]): DesignDocument {
  if (replacements.length === 0) return doc;
  const byId = new Map(replacements.map((el) => [el.id, el]));
  return updateActivePage(doc, (page) => ({
    ...page,
    elements: page.elements.map((el) => byId.get(el.id) ?? el),
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
    elements: page.elements.map((el) => (wanted.has(el.id) ? fn(el) : el)),
  }));
}

export function addElements(doc: DesignDocument, elements: readonly Element[]): DesignDocument {
  return updateActivePage(doc, (page) => ({ ...page, elements: [...page.elements, ...elements] }));
}

export function deleteElements(doc: DesignDocument, ids: readonly string[]): DesignDocument {
  const gone = new Set(ids);
  return updateActivePage(doc, (page) => ({
    ...page,
    elements: page.elements.filter((el) => !gone.has(el.id)),
  }));
}

/** Copies of `elements` with fresh ids, offset by `offset` units; returns the copies. */
export function cloneElements(doc: DesignDocument, elements: readonly Element[], offset: number): Element[] {
  const used = usedIds(doc);
  return elements.map((el) => ({
    ...structuredClone(el),
    id: freshId(el.type, used),
    x: el.x + offset,
    y: el.y + offset,
  }));
}

/** Duplicates the given elements of the active page above the topmost of them. */
export function duplicateElements(
  doc: DesignDocument,
  ids: readonly string[],
  offset = 20,
): { doc: DesignDocument; ids: string[] } {
  const wanted = new Set(ids);
  const originals = activePage(doc).elements.filter((el) => wanted.has(el.id));
  const copies = cloneElements(doc, originals, offset);
  return { doc: addElements(doc, copies), ids: copies.map((el) => el.id) };
}

/** Moves an element of the active page to `index` in paint order (0 is the bottom). */
export function moveElementTo(doc: DesignDocument, id: string, index: number): DesignDocument {
  return updateActivePage(doc, (page) => {
    const from = page.elements.findIndex((el) => el.id === id);
    const moving = page.elements[from];
    if (!moving) return page;
    const rest = page.elements.filter((el) => el.id !== id);
    const to = Math.max(0, Math.min(rest.length, index));
    if (to === from) return page;
    return { ...page, elements: [...rest.slice(0, to), moving, ...rest.slice(to)] };
  });
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
    elements: copy.elements.map((el) => ({ ...el, id: freshId(el.type, used) })),
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
