/**
 * Which characters each font of a job covers, read from the fonts' character maps with fontkit
 * (TTF, OTF, WOFF, WOFF2, collections): the same files the canvas registry draws with
 * (backends/fonts.ts), so "covered" means a glyph of ours draws the character, not a system font
 * the host happens to have. Bundled families are read once per process (their regular face: the
 * weights of a family cover the same characters); a workspace's uploaded fonts by their bytes,
 * cached as the registry caches them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { bundledFontFiles, scopedAlias } from '../backends/fonts.ts';
import { Lru } from '../backends/lru.ts';
import type { JobFont } from '../types.ts';

export type CharacterSet = ReadonlySet<number>;

const EMPTY: CharacterSet = new Set();

function characterSetOf(bytes: Buffer): CharacterSet {
  try {
    const font = fontkit.create(bytes);
    const faces = 'fonts' in font ? font.fonts : [font];
    const covered = new Set<number>();
    for (const face of faces) for (const codePoint of face.characterSet) covered.add(codePoint);
    return covered;
  } catch {
    // A file fontkit cannot read: the canvas skipped it too, and its text falls back.
    return EMPTY;
  }
}

const bundled = new Map<string, CharacterSet>();

function bundledCoverage(family: string): CharacterSet | undefined {
  const known = bundled.get(family);
  if (known) return known;
  const faces = bundledFontFiles().filter((file) => file.family === family);
  if (faces.length === 0) return undefined;
  const regular = faces.find((face) => face.weight === 400 && face.style === 'normal') ?? faces[0];
  const covered = regular ? characterSetOf(readFileSync(regular.path)) : EMPTY;
  bundled.set(family, covered);
  return covered;
}

const uploaded = new Lru<string, CharacterSet>({
  name: 'font-coverage',
  maxEntries: 256,
  // A character set of a large CJK font is about 30,000 numbers.
  maxWeight: 64 * 1024 * 1024,
  weigh: (set) => set.size * 16 + 64,
});

/** Registered family name (as layout writes it in a run's font) → the characters it covers. */
export function coverageFor(
  workspaceId: string,
  fonts: readonly JobFont[],
): (family: string) => CharacterSet {
  const own = new Map<string, JobFont[]>();
  for (const font of fonts) {
    const alias = scopedAlias(workspaceId, font.family);
    own.set(alias, [...(own.get(alias) ?? []), font]);
  }
  const merged = new Map<string, CharacterSet>();
  return (family) => {
    const files = own.get(family);
    if (!files) return bundledCoverage(family) ?? EMPTY;
    const known = merged.get(family);
    if (known) return known;
    const covered = new Set<number>();
    for (const file of files) {
      const key = createHash('sha256').update(file.bytes).digest('hex');
      let set = uploaded.get(key);
      if (!set) {
        set = characterSetOf(Buffer.from(file.bytes));
        uploaded.set(key, set);
      }
      for (const codePoint of set) covered.add(codePoint);
    }
    merged.set(family, covered);
    return covered;
  };
}
