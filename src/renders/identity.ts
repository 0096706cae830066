/**
 * What makes two render requests "identical" (CONTRACT.md, Credits): the same template, draft
 * content, modifications (absent = {}, key order ignored), idempotencyKey (or its absence), format,
 * page selection and options. The hash of those is the identity that is charged once.
 */
import { createHash } from 'node:crypto';
import { canonicalModifications } from '../design/index.ts';

export interface RenderIdentityInput {
  templateId: string;
  /** SHA-256 of the stored draft: content, not revision, decides (a no-op save changes nothing). */
  documentHash: string;
  modifications: Record<string, string> | undefined;
  idempotencyKey: string | undefined;
  format: 'png' | 'jpeg' | 'pdf';
  pageIds: string[];
  allPages: boolean;
  scale: number;
  quality: number;
}

export function renderIdentity(input: RenderIdentityInput): string {
  const canonical = JSON.stringify([
    'platen-render-v1',
    input.templateId,
    input.documentHash,
    canonicalModifications(input.modifications ?? {}),
    input.idempotencyKey ?? null,
    input.format,
    input.allPages,
    input.pageIds,
    input.scale,
    input.quality,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
