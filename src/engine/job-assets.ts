/** What a job must carry for a document: the service reads it before handing the job to the pool. */
import { assetIdOf, type DesignDocument, isImageBackground, pageElements } from '../design/index.ts';

/** Asset ids the document's images use (backgrounds and image elements, in groups too), each once, in order. */
export function assetIdsReferenced(doc: DesignDocument): string[] {
  const ids = new Set<string>();
  for (const page of doc.pages) {
    const sources = [isImageBackground(page.background) ? page.background.src : null];
    for (const element of pageElements(page)) if (element.type === 'image') sources.push(element.src);
    for (const src of sources) {
      const id = src === null ? null : assetIdOf(src);
      if (id) ids.add(id);
    }
  }
  return [...ids];
}
