/**
 * The bundled font files (npm font packages): where each family's faces are on disk. Plain data
 * and file names, no drawing library: the service's studio serves these very files, and only the
 * render processes register them with Skia (fonts.ts).
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { type BundledFamily, CJK_FAMILY, EMOJI_FAMILY } from '../layout/font-catalog.ts';

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
