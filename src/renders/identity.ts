/**
 * What makes two render requests "identical" (docs/api.md, Rendering): the same template, draft
 * content, modifications (absent = {}, key order ignored), idempotencyKey (or its absence), format,
 * page selection and options, and for an embed end-user whose assets it could use. The hash of those is the identity that is charged once.
 */
import { createHash } from 'node:crypto';
import { canonicalModifications } from '../design/index.ts';

export interface RenderIdentityInput {
  templateId: string;
  /**
   * Which assets the render could use (tenancy.ts `assetScopeOf`): null for the whole workspace.
   * An end-user's render must never replay one that used another user's private asset.
   */
  assetScope: string | null;
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
    // Appended only when set, so the identities of workspace-wide renders made before it existed
    // stay the same (their replays stay free).
    ...(input.assetScope === null ? [] : [input.assetScope]),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
