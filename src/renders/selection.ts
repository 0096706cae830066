/** Which pages and options a render request selects, and the identity that makes renders identical. */
import { AppError } from '../core/errors.ts';
import type { DesignDocument } from '../design/index.ts';
import { renderIdentity } from './identity.ts';
import type { RenderRequest } from './schemas.ts';

export interface Selection {
  allPages: boolean;
  pageIds: string[];
  format: 'png' | 'jpeg' | 'pdf';
  scale: number;
  quality: number;
  fileCount: number;
  identity: string;
}

export interface Plan extends Selection {
  templateId: string;
  document: DesignDocument;
}

export interface DraftFacts {
  id: string;
  documentHash: string;
  pageIds?: string[];
  activePageId?: string;
  document?: DesignDocument;
}

/** Pages, options and the identity of a request, from what is known of the draft. */
export function select(draft: DraftFacts, request: RenderRequest, assetScope: string | null): Selection {
  const allIds = draft.document ? draft.document.pages.map((p) => p.id) : (draft.pageIds ?? []);
  const activePageId = draft.document ? draft.document.activePageId : (draft.activePageId ?? '');
  const allPages = request.allPages === true;
  const pageId = request.pageId ?? activePageId;
  if (!allPages && !allIds.includes(pageId)) {
    throw new AppError('NOT_FOUND', `The page ${JSON.stringify(pageId)} was not found in this template.`);
  }
  const pageIds = allPages ? allIds : [pageId];
  const format = request.format;
  const scale = format === 'pdf' ? 1 : (request.scale ?? 1);
  const quality = format === 'jpeg' ? (request.quality ?? 90) : 0;
  const identity = renderIdentity({
    templateId: draft.id,
    assetScope,
    documentHash: draft.documentHash,
    modifications: request.modifications,
    idempotencyKey: request.idempotencyKey,
    format,
    pageIds,
    allPages,
    scale,
    quality,
  });
  return {
    allPages,
    pageIds,
    format,
    scale,
    quality,
    identity,
    fileCount: format === 'pdf' ? 1 : pageIds.length,
  };
}
