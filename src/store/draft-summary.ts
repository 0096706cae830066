/**
 * What the render path needs to know of a draft without parsing it: a content hash (two drafts
 * with the same hash render the same) and the page ids with the active one.
 */
import { createHash } from 'node:crypto';

export interface DraftSummary {
  documentHash: string;
  /** JSON array of page ids. */
  pageIds: string;
  activePageId: string;
}

export function draftSummary(documentJson: string): DraftSummary {
  const document = JSON.parse(documentJson) as { activePageId?: string; pages?: { id: string }[] };
  const pageIds = (document.pages ?? []).map((p) => p.id);
  return {
    documentHash: createHash('sha256').update(documentJson).digest('hex'),
    pageIds: JSON.stringify(pageIds),
    activePageId: document.activePageId ?? pageIds[0] ?? '',
  };
}
