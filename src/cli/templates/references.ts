/**
 * The assets a design document depends on: images it names as `asset:<id>` and fonts it names by
 * family. The whole JSON is walked rather than the fields known today (image `src`, a page
 * background), so a variable holding `asset:<id>` or a field added later is not left behind when a
 * folder moves to another workspace. Pure: plain JSON in, plain JSON out.
 */
import { assetIdOf } from '../../design/index.ts';

function visitStrings(value: unknown, visit: (text: string, key: string | null) => void, key: string | null) {
  if (typeof value === 'string') visit(value, key);
  else if (Array.isArray(value)) for (const item of value) visitStrings(item, visit, null);
  else if (typeof value === 'object' && value !== null) {
    for (const [name, item] of Object.entries(value)) visitStrings(item, visit, name);
  }
}

/** Every id the document names as `asset:<id>` (the whole string), each once, sorted. */
export function referencedAssetIds(document: unknown): string[] {
  const ids = new Set<string>();
  visitStrings(
    document,
    (text) => {
      const id = assetIdOf(text);
      if (id) ids.add(id);
    },
    null,
  );
  return [...ids].sort();
}

/** The font families the document's text asks for, lower-cased as the renderer matches them. */
export function fontFamiliesUsed(document: unknown): Set<string> {
  const families = new Set<string>();
  visitStrings(
    document,
    (text, key) => {
      if (key === 'fontFamily') families.add(text.toLowerCase());
    },
    null,
  );
  return families;
}

/** A copy of the document with each `asset:<old>` that `renamed` maps replaced by `asset:<new>`. */
export function replaceAssetIds(document: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (typeof document === 'string') {
    const id = assetIdOf(document);
    const next = id === null ? undefined : renamed.get(id);
    return next === undefined ? document : `asset:${next}`;
  }
  if (Array.isArray(document)) return document.map((item) => replaceAssetIds(item, renamed));
  if (typeof document === 'object' && document !== null) {
    return Object.fromEntries(
      Object.entries(document).map(([key, value]) => [key, replaceAssetIds(value, renamed)]),
    );
  }
  return document;
}
