/**
 * The font registry of a rendering process: registers the bundled families (npm font packages)
 * once, registers each workspace's uploaded fonts under a scoped alias (`ws_<id>__<Family>`, the
 * canvas registry being process-wide), and builds the per-job FontCatalog through which layout
 * names fonts, so a document sees bundled families and its own workspace's fonts, nothing else.
 */
import { createHash } from 'node:crypto';
import { type FontKey, GlobalFonts } from '@napi-rs/canvas';
import { bundledFontCatalog } from '../layout/font-catalog.ts';
import type { FontCatalog } from '../layout/types.ts';
import { cacheBytes } from './cache-limits.ts';
import { bundledFontFiles } from './font-files.ts';
import { Lru } from './lru.ts';

// Family names, the fallback chain and generic names are pure data in layout/font-catalog.ts.
export {
  BUNDLED_FAMILIES,
  CJK_FAMILY,
  DEFAULT_FAMILY,
  EMOJI_FAMILY,
  FALLBACK_FAMILIES,
} from '../layout/font-catalog.ts';
export { type BundledFontFile, bundledFontFiles } from './font-files.ts';

let bundledRegistered = false;

function registerFile(path: string, family: string): void {
  if (!GlobalFonts.registerFromPath(path, family)) throw new Error(`could not register bundled font ${path}`);
}

/** Registers every bundled font once per process (cheap: Skia reads the files lazily). */
export function registerBundledFonts(): void {
  if (bundledRegistered) return;
  for (const font of bundledFontFiles()) registerFile(font.path, font.family);
  bundledRegistered = true;
}

export interface WorkspaceFont {
  family: string;
  bytes: Uint8Array;
  assetId: string;
}

/** Registry name for a workspace family: only characters that survive a CSS font list. */
export function scopedAlias(workspaceId: string, family: string): string {
  const clean = (text: string): string => text.replace(/[^A-Za-z0-9 _-]/g, '_').trim();
  return `ws_${clean(workspaceId)}__${clean(family)}`;
}

interface RegisteredFont {
  key: FontKey;
  bytes: number;
}

/** Uploaded fonts stay registered across jobs (bounded), keyed by workspace, asset and content. */
const workspaceFonts = new Lru<string, RegisteredFont>({
  name: 'workspace-fonts',
  maxEntries: 256,
  maxWeight: cacheBytes('workspaceFonts'),
  weigh: (font) => font.bytes,
  onEvict: (font) => {
    GlobalFonts.remove(font.key);
  },
});

function registerWorkspaceFont(workspaceId: string, font: WorkspaceFont): boolean {
  const hash = createHash('sha256').update(font.bytes).digest('hex').slice(0, 32);
  const cacheKey = `${workspaceId}\u0000${font.assetId}\u0000${font.family}\u0000${hash}`;
  if (workspaceFonts.get(cacheKey)) return true;
  const key = GlobalFonts.register(Buffer.from(font.bytes), scopedAlias(workspaceId, font.family));
  if (!key) return false;
  workspaceFonts.set(cacheKey, { key, bytes: font.bytes.byteLength });
  return true;
}

/** The catalogue for one job: bundled and generic names, then the workspace's own families. */
export function fontCatalogFor(workspaceId: string, fonts: readonly WorkspaceFont[]): FontCatalog {
  registerBundledFonts();
  const own: [string, string][] = [];
  for (const font of fonts) {
    // A font file the canvas cannot read is skipped: its text falls back like an unknown family.
    if (registerWorkspaceFont(workspaceId, font))
      own.push([font.family, scopedAlias(workspaceId, font.family)]);
  }
  return bundledFontCatalog(own);
}
