/**
 * What makes two render requests "identical" (docs/api.md, Rendering): the same template, draft
 * content, modifications (absent = {}, key order ignored), idempotencyKey (or its absence), format,
 * page selection and options (with their defaults resolved: selection.ts), and for an embed end-user
 * whose assets it could use. The hash of those is the identity that is charged once.
 */
import { sha256Hex } from '../core/ids.ts';
import { canonicalModifications } from '../design/index.ts';
import type { RenderFormat } from './schemas.ts';

export interface RenderIdentityInput {
  templateId: string;
  /**
   * Which assets the render could use (tenancy.ts `assetScopeOf`): null for the whole workspace.
   * An end-user's render must never replay one that used another user's private asset.
   */
  assetScope: string | null;
  /** SHA-256 of the stored draft: content, not revision, decides (a no-op save changes nothing). */
  documentHash: string;
  /**
   * The published version pinned, or null for the draft: a version renders apart from a draft of
   * the same content, so each render says truly which it drew (docs/versions.md).
   */
  version: number | null;
  modifications: Record<string, string> | undefined;
  idempotencyKey: string | undefined;
  format: RenderFormat;
  pageIds: string[];
  allPages: boolean;
  scale: number;
  quality: number;
  /** Video formats: frames per second (0 for stills). */
  fps: number;
  /** GIF: palette dithering (null for other formats). */
  dither: boolean | null;
  /** Stills: the time drawn, when the request named one (null: each page's default). */
  timeMs: number | null;
}

/**
 * Motion's options, or nothing for a still drawn at its default time: so every identity made
 * before Motion (stills had no time) stays the same, and their replays stay free. An object, so it
 * can never read as the asset scope (a string) that may follow it.
 */
function motionPart(input: RenderIdentityInput): object[] {
  if (input.fps > 0) return [{ fps: input.fps, dither: input.dither }];
  if (input.timeMs !== null) return [{ timeMs: input.timeMs }];
  return [];
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
    ...motionPart(input),
    // Appended only when set, so the identities of workspace-wide renders made before it existed
    // stay the same (their replays stay free).
    ...(input.assetScope === null ? [] : [input.assetScope]),
    // Appended only when pinned, for the same reason; an object, never read as a scope.
    ...(input.version === null ? [] : [{ version: input.version }]),
  ]);
  return sha256Hex(canonical);
}
