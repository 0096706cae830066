/**
 * The server's own font files as browser FontFaces, under the same family names the engine's
 * catalogue uses (BUNDLED_FAMILIES and EMOJI_FAMILY), so the canvas measures and draws text as the
 * server does. Every face in the manifest is registered (lazily: the browser fetches nothing until
 * a face is loaded); `fontsFor(document)` loads the faces a document uses plus the fallback chain,
 * since loading all of them would be ~60 MB (the CJK family alone is 20 MB).
 */
import {
  bundledFontCatalog,
  CJK_FAMILY,
  DEFAULT_FAMILY,
  type DesignDocument,
  EMOJI_FAMILY,
  FALLBACK_FAMILIES,
  resolveFamily,
} from '../../src/engine/browser.ts';

interface ManifestFont {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  url: string;
}

let faces: Promise<FontFace[]> | null = null;

/** Fetches the manifest once and adds every face to `document.fonts` (not yet loaded). */
export function registerFonts(): Promise<FontFace[]> {
  faces ??= (async () => {
    const response = await fetch('/studio/fonts/manifest.json');
    if (!response.ok) throw new Error(`font manifest: HTTP ${response.status}`);
    const manifest = (await response.json()) as { fonts: ManifestFont[] };
    return manifest.fonts.map((font) => {
      const face = new FontFace(font.family, `url(${JSON.stringify(font.url)})`, {
        weight: String(font.weight),
        style: font.style,
        display: 'block',
      });
      // lib.dom's FontFaceSet type lacks its setlike add(); browsers have it.
      (document.fonts as FontFaceSet & { add(face: FontFace): void }).add(face);
      return face;
    });
  })();
  return faces;
}

/** The registered face nearest to a weight and style, as CSS font matching would pick it. */
function nearest(
  all: readonly FontFace[],
  family: string,
  weight: number,
  style: string,
): FontFace | undefined {
  const ofFamily = all.filter((face) => face.family.replace(/"/g, '') === family);
  const sameStyle = ofFamily.filter((face) => face.style === style);
  const pool = sameStyle.length > 0 ? sameStyle : ofFamily;
  return pool.reduce<FontFace | undefined>((best, face) => {
    if (!best) return face;
    return Math.abs(Number(face.weight) - weight) < Math.abs(Number(best.weight) - weight) ? face : best;
  }, undefined);
}

const CJK = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/u;
const BEYOND_LATIN = /[^\u0020-\u024F\u2000-\u206F\s]/u;

/** Loads the faces `doc` needs (its fonts at their weights and styles, then the fallback chain). */
export async function fontsFor(doc: DesignDocument): Promise<void> {
  const all = await registerFonts();
  const catalog = bundledFontCatalog();
  const wanted = new Set<FontFace>();
  const add = (family: string, weight: number, style: string) => {
    const face = nearest(all, family, weight, style);
    if (face) wanted.add(face);
  };
  add(DEFAULT_FAMILY, 400, 'normal');
  for (const page of doc.pages) {
    for (const element of page.elements) {
      if (element.type !== 'text') continue;
      const family = resolveFamily(catalog, element.fontFamily);
      add(family, element.fontWeight, element.fontStyle);
      if (BEYOND_LATIN.test(element.text)) {
        for (const fallback of FALLBACK_FAMILIES)
          if (fallback !== CJK_FAMILY) add(fallback, element.fontWeight, element.fontStyle);
        add(EMOJI_FAMILY, 400, 'normal');
      }
      if (CJK.test(element.text)) add(CJK_FAMILY, element.fontWeight, 'normal');
    }
  }
  // A face that fails to load leaves its text to the fallbacks, as on the server: not fatal.
  await Promise.allSettled([...wanted].map((face) => face.load()));
}
