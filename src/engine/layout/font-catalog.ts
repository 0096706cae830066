/**
 * The bundled font families by name, and the FontCatalog built from them: pure data shared by the
 * Node font registry (backends/fonts.ts, which also registers the files) and the browser entry
 * point, so a document's font names resolve to the same families on the server and in the studio.
 */
import type { FontCatalog } from './types.ts';

export const EMOJI_FAMILY = 'Twemoji Mozilla';
export const CJK_FAMILY = 'Noto Sans SC';
export const DEFAULT_FAMILY = 'Inter';

/** Families a document may name, in registration order (the emoji font is a fallback only). */
export const BUNDLED_FAMILIES = [
  'Inter',
  'Roboto',
  'Open Sans',
  'Montserrat',
  'Playfair Display',
  'Noto Sans',
  'DejaVu Sans',
  'DejaVu Serif',
  'DejaVu Sans Mono',
  CJK_FAMILY,
] as const;

export type BundledFamily = (typeof BUNDLED_FAMILIES)[number];

/**
 * Appended after the primary family, in this order: colour emoji first (a text font's
 * monochrome emoji, such as DejaVu's, must not win), then wide-coverage Latin/Greek/Cyrillic,
 * DejaVu (Arabic, Hebrew, symbols), then CJK.
 */
export const FALLBACK_FAMILIES = [EMOJI_FAMILY, 'Noto Sans', 'DejaVu Sans', CJK_FAMILY] as const;

/** Generic CSS names map to bundled families so documents written for browsers still work. */
export const GENERIC_FAMILIES: Readonly<Record<string, BundledFamily>> = {
  'sans-serif': 'Inter',
  serif: 'Playfair Display',
  monospace: 'DejaVu Sans Mono',
  'system-ui': 'Inter',
};

/**
 * The catalogue of bundled and generic names, then `extra` families (document name → the name the
 * host registered the font under, e.g. a workspace alias or a browser FontFace family), which win
 * over bundled ones of the same name. The host must have the registered names loaded.
 */
export function bundledFontCatalog(extra: Iterable<readonly [string, string]> = []): FontCatalog {
  const families = new Map<string, string>();
  for (const family of BUNDLED_FAMILIES) families.set(family.toLowerCase(), family);
  for (const [generic, family] of Object.entries(GENERIC_FAMILIES)) families.set(generic, family);
  for (const [name, registered] of extra) families.set(name.trim().toLowerCase(), registered);
  return { families, defaultFamily: DEFAULT_FAMILY, fallbacks: FALLBACK_FAMILIES };
}
