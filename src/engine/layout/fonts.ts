/**
 * Font naming for layout: turns a document's fontFamily/weight/style/size into the CSS font
 * shorthand the canvas understands, with the job's fallback chain appended so that every glyph
 * finds a font (Skia falls back per glyph along the family list). Only names from the job's
 * FontCatalog can appear, so a document cannot reach another workspace's registered fonts.
 */
import type { FontCatalog } from './types.ts';

export interface FontRequest {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  size: number;
}

/** Registered family for a document family name; the catalogue default when it is unknown. */
export function resolveFamily(catalog: FontCatalog, family: string): string {
  return catalog.families.get(family.trim().toLowerCase()) ?? catalog.defaultFamily;
}

function quote(family: string): string {
  // Catalogue names are registry names we chose; quoting keeps spaces and digits safe.
  return `"${family.replace(/["\\]/g, '')}"`;
}

/** The family list: primary, then each fallback once. */
export function familyChain(catalog: FontCatalog, family: string): string[] {
  const primary = resolveFamily(catalog, family);
  const chain = [primary];
  for (const fallback of catalog.fallbacks) if (!chain.includes(fallback)) chain.push(fallback);
  return chain;
}

/** Round sizes so measurements cache well and output is stable across platforms. */
export function roundSize(size: number): number {
  return Math.round(size * 100) / 100;
}

export function fontShorthand(catalog: FontCatalog, request: FontRequest): string {
  const chain = familyChain(catalog, request.family).map(quote).join(', ');
  const style = request.style === 'italic' ? 'italic ' : '';
  return `${style}${request.weight} ${roundSize(request.size)}px ${chain}`;
}
