/**
 * The font registry of a rendering process: registers the bundled families (npm font packages)
 * once, registers each workspace's uploaded fonts under a scoped alias (`ws_<id>__<Family>`, the
 * canvas registry being process-wide), and builds the per-job FontCatalog through which layout
 * names fonts, so a document sees bundled families and its own workspace's fonts, nothing else.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { type FontKey, GlobalFonts } from '@napi-rs/canvas';
import { type BundledFamily, bundledFontCatalog, CJK_FAMILY, EMOJI_FAMILY } from '../layout/font-catalog.ts';
import type { FontCatalog } from '../layout/types.ts';
import { cacheBytes } from './cache-limits.ts';
import { Lru } from './lru.ts';

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** Bundled families from @expo-google-fonts packages: every weight/style directory's TTF. */
const EXPO_FAMILIES = {
  Inter: '@expo-google-fonts/inter',
  Roboto: '@expo-google-fonts/roboto',
  'Open Sans': '@expo-google-fonts/open-sans',
  Montserrat: '@expo-google-fonts/montserrat',
  'Playfair Display': '@expo-google-fonts/playfair-display',
  'Noto Sans': '@expo-google-fonts/noto-sans',
} as const satisfies Partial<Record<BundledFamily, string>>;

const DEJAVU = {
  'DejaVu Sans': [
    'DejaVuSans.ttf',
    'DejaVuSans-Bold.ttf',
    'DejaVuSans-Oblique.ttf',
    'DejaVuSans-BoldOblique.ttf',
  ],
  'DejaVu Serif': [
    'DejaVuSerif.ttf',
    'DejaVuSerif-Bold.ttf',
    'DejaVuSerif-Italic.ttf',
    'DejaVuSerif-BoldItalic.ttf',
  ],
  'DejaVu Sans Mono': [
    'DejaVuSansMono.ttf',
    'DejaVuSansMono-Bold.ttf',
    'DejaVuSansMono-Oblique.ttf',
    'DejaVuSansMono-BoldOblique.ttf',
  ],
} as const satisfies Partial<Record<BundledFamily, readonly string[]>>;

// Family names, the fallback chain and generic names are pure data in layout/font-catalog.ts.
export {
  BUNDLED_FAMILIES,
  CJK_FAMILY,
  DEFAULT_FAMILY,
  EMOJI_FAMILY,
  FALLBACK_FAMILIES,
} from '../layout/font-catalog.ts';

/** One font file the server registers: the studio serves the very same files (src/studio). */
export interface BundledFontFile {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  /** Absolute path on disk (inside node_modules). */
  path: string;
  /** The file's base name, unique across the list (the studio's URL segment). */
  file: string;
}

/** `400Regular_Italic` → weight 400, italic (the @expo-google-fonts directory names). */
function expoFace(dir: string): { weight: number; style: 'normal' | 'italic' } {
  return { weight: Number(dir.slice(0, 3)), style: dir.endsWith('_Italic') ? 'italic' : 'normal' };
}

/** `DejaVuSans-BoldOblique.ttf` → weight 700, italic. */
function dejavuFace(file: string): { weight: number; style: 'normal' | 'italic' } {
  return { weight: /Bold/.test(file) ? 700 : 400, style: /Oblique|Italic/.test(file) ? 'italic' : 'normal' };
}

function entry(family: string, face: { weight: number; style: 'normal' | 'italic' }, path: string) {
  return { family, ...face, path, file: basename(path) };
}

let bundledFiles: BundledFontFile[] | null = null;

/** Every bundled font file, in registration order; computed once (it reads package directories). */
export function bundledFontFiles(): readonly BundledFontFile[] {
  if (bundledFiles) return bundledFiles;
  const files: BundledFontFile[] = [];
  for (const [family, pkg] of Object.entries(EXPO_FAMILIES)) {
    const root = packageDir(pkg);
    for (const dir of readdirSync(root).filter((name) => /^\d{3}/.test(name))) {
      const file = readdirSync(join(root, dir)).find((name) => name.endsWith('.ttf'));
      if (file) files.push(entry(family, expoFace(dir), join(root, dir, file)));
    }
  }
  const sc = packageDir('@expo-google-fonts/noto-sans-sc');
  files.push(entry(CJK_FAMILY, expoFace('400Regular'), join(sc, '400Regular', 'NotoSansSC_400Regular.ttf')));
  files.push(entry(CJK_FAMILY, expoFace('700Bold'), join(sc, '700Bold', 'NotoSansSC_700Bold.ttf')));
  const dejavu = join(packageDir('dejavu-fonts-ttf'), 'ttf');
  for (const [family, names] of Object.entries(DEJAVU))
    for (const name of names) files.push(entry(family, dejavuFace(name), join(dejavu, name)));
  const emoji = join(packageDir('twemoji-colr-font'), 'twemoji.woff2');
  files.push(entry(EMOJI_FAMILY, { weight: 400, style: 'normal' }, emoji));
  bundledFiles = files;
  return files;
}

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
