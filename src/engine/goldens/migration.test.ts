/**
 * Version 1 → 2 changes no pixel of an existing template. The goldens `migration-v1-*.png` were
 * rendered by the version 1 service (commit e8aef72, before any version 2 code) from the documents
 * in fixtures/, and the `.stored.json` files are those documents as that service stored them
 * (every default filled). Now: the stored form migrates to exactly itself at version 2, the
 * migrated document renders the same pixels as the golden, and rendering the stored version 1 form
 * unparsed (as a render of a template not saved since) gives the same bytes as the migrated one.
 */
import { readFileSync } from 'node:fs';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { type DesignDocument, parseDesignDocument } from '../../design/index.ts';
import { GOLDEN_DIR, renderPng } from './harness.ts';

/** Differing pixels against a golden; never rewritten by goldens:update (the version 1 output is history). */
function differingPixels(name: string, png: Uint8Array): number {
  const golden = PNG.sync.read(readFileSync(`${GOLDEN_DIR}/${name}.png`));
  const actual = PNG.sync.read(Buffer.from(png));
  if (golden.width !== actual.width || golden.height !== actual.height) return Number.POSITIVE_INFINITY;
  return pixelmatch(golden.data, actual.data, undefined, actual.width, actual.height, { threshold: 0 });
}

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe.each(['everything', 'promo-card'])('the version 1 %s document', (name) => {
  const stored = fixture(`v1-${name}.stored.json`);

  it('migrates to itself at version 2', () => {
    const parsed = parseDesignDocument(stored);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.document).toEqual({ ...stored, schemaVersion: 2 });
  });

  it('renders the same pixels as the version 1 service did', async () => {
    const parsed = parseDesignDocument(stored);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const migrated = await renderPng(parsed.document);
    expect(differingPixels(`migration-v1-${name}`, migrated.bytes)).toBe(0);
    const unmigrated = await renderPng(stored as unknown as DesignDocument);
    expect(Buffer.from(unmigrated.bytes).equals(Buffer.from(migrated.bytes))).toBe(true);
  });
});
