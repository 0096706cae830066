/**
 * The server's own font files as browser FontFaces, under the same family names the engine's
 * catalogue uses (BUNDLED_FAMILIES and EMOJI_FAMILY), so the canvas measures and draws text as the
 * server does. Every face in the manifest is registered (lazily: the browser fetches nothing until
 * a face is loaded); `fontsFor(document)` loads the faces a document uses plus the fallback chain,
 * since loading all of them would be ~60 MB (the CJK family alone is 20 MB).
 *
 * The workspace's uploaded fonts come from the embed font list: each file is loaded as a FontFace
 * under a studio alias (`Platen Workspace <family>`), weighted as the file declares, and the
 * document's family names map to those aliases in the engine's catalogue, as the server maps them
 * to its scoped aliases. Files of families the document uses are loaded at open, others on demand.
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
import type { Api, WorkspaceFontFile } from './api.ts';
import { ownPath } from './app/images.ts';
import { faceStyleOf } from './font-style.ts';
import { textFaces } from './text-faces.ts';

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

/** Document family name → the FontFace family the canvas must name, for uploaded fonts. */
export type FamilyAliases = ReadonlyArray<readonly [string, string]>;

export interface DocumentFonts {
  /** Resolves once the document's faces are loaded, with the workspace families' aliases. */
  ready: Promise<FamilyAliases>;
  /** Loads an uploaded family picked after opening; resolves true when a face was added. */
  loadFamily(family: string): Promise<boolean>;
}

const aliasOf = (family: string) => `Platen Workspace ${family.replace(/[^A-Za-z0-9 _-]/g, '_').trim()}`;

async function addWorkspaceFace(file: WorkspaceFontFile): Promise<void> {
  const path = ownPath(file.url);
  if (!path) return;
  const response = await fetch(path);
  if (!response.ok) return;
  const bytes = await response.arrayBuffer();
  // Undeclared (WOFF2, odd files): one face serves every weight, as a lone face does on the server.
  const declared = await faceStyleOf(bytes);
  const face = new FontFace(aliasOf(file.family), bytes, {
    weight: declared ? String(declared.weight) : '1 1000',
    style: declared?.style ?? 'normal',
  });
  await face.load();
  (document.fonts as FontFaceSet & { add(face: FontFace): void }).add(face);
}

function workspaceFonts(api: Api, used: ReadonlySet<string>) {
  const files = api.fonts().catch(() => [] as WorkspaceFontFile[]);
  const loaded = new Map<string, Promise<boolean>>();
  const loadFamily = async (family: string): Promise<boolean> => {
    const key = family.trim().toLowerCase();
    let pending = loaded.get(key);
    if (!pending) {
      pending = files.then(async (all) => {
        const mine = all.filter((file) => file.family.trim().toLowerCase() === key);
        const results = await Promise.allSettled(mine.map(addWorkspaceFace));
        return results.some((result) => result.status === 'fulfilled') && mine.length > 0;
      });
      loaded.set(key, pending);
    }
    return pending;
  };
  const ready = files.then(async (all) => {
    await Promise.all([...used].map(loadFamily));
    return all.map((file) => [file.family, aliasOf(file.family)] as const);
  });
  return { ready, loadFamily };
}

/** The bundled faces and uploaded families `doc` uses, loaded; later families on demand. */
export function fontsFor(doc: DesignDocument, api: Api): DocumentFonts {
  const used = new Set<string>();
  for (const page of doc.pages)
    for (const face of textFaces(page)) used.add(face.fontFamily.trim().toLowerCase());
  const workspace = workspaceFonts(api, used);
  const ready = Promise.all([bundledFacesFor(doc), workspace.ready]).then(([, aliases]) => aliases);
  return { ready, loadFamily: workspace.loadFamily };
}

/** Loads the bundled faces `doc` needs (its fonts at their weights and styles, then the fallback chain). */
async function bundledFacesFor(doc: DesignDocument): Promise<void> {
  const all = await registerFonts();
  const catalog = bundledFontCatalog();
  const wanted = new Set<FontFace>();
  const add = (family: string, weight: number, style: string) => {
    const face = nearest(all, family, weight, style);
    if (face) wanted.add(face);
  };
  add(DEFAULT_FAMILY, 400, 'normal');
  for (const page of doc.pages) {
    // Each text element's face and each of its spans' (rich text), nested ones too.
    for (const element of textFaces(page)) {
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
