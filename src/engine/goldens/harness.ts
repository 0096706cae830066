/**
 * Golden-image harness for the renderer's feature tests: builds documents with every default
 * filled (through the real parser), renders them with bundled fonts only, and compares PNGs with
 * pixelmatch. Goldens live in test/goldens/<name>.png; `PLATEN_UPDATE_GOLDENS=1` rewrites them
 * (npm run goldens:update). A mismatch writes golden|actual|diff side by side to test/.tmp/.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { type DesignDocument, parseDesignDocument } from '../../design/index.ts';
import { renderInProcess } from '../render.ts';
import type { OutputFormat, RenderedFile, RenderJob } from '../types.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const GOLDEN_DIR = join(ROOT, 'test', 'goldens');
export const TMP_DIR = join(ROOT, 'test', '.tmp');

/** pixelmatch's per-pixel colour threshold (0-1; 0.1 is its default, tolerant of anti-aliasing). */
export const PIXEL_THRESHOLD = 0.1;
/** Share of pixels allowed to differ beyond that before a golden fails: 0.2 %. */
export const MAX_DIFF_RATIO = 0.002;

export const updating = process.env.PLATEN_UPDATE_GOLDENS === '1';

/** A one-page document from raw page fields, parsed so every default is filled as in production. */
export function pageDocument(page: Record<string, unknown>): DesignDocument {
  return documentOf([{ id: 'p1', ...page }]);
}

export function documentOf(pages: Record<string, unknown>[]): DesignDocument {
  const parsed = parseDesignDocument({ schemaVersion: 1, pages });
  if (!parsed.ok) throw new Error(`fixture is invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.document;
}

export function jobFor(
  document: DesignDocument,
  format: OutputFormat = 'png',
  extra: Partial<RenderJob> = {},
): RenderJob {
  return {
    document,
    pageIds: document.pages.map((p) => p.id),
    format,
    workspaceId: 'ws_golden',
    assets: {},
    fonts: [],
    ...extra,
  };
}

export async function renderPng(
  document: DesignDocument,
  extra: Partial<RenderJob> = {},
): Promise<RenderedFile> {
  const [file] = await renderInProcess(jobFor(document, 'png', extra));
  if (!file) throw new Error('no file rendered');
  return file;
}

/** A deterministic photo-like test image (gradients and a disc), as PNG or JPEG bytes. */
export async function testPhoto(
  width: number,
  height: number,
  format: 'png' | 'jpeg' = 'png',
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const inDisc = (x - width * 0.7) ** 2 + (y - height * 0.35) ** 2 < (Math.min(width, height) * 0.2) ** 2;
      pixels[i] = inDisc ? 250 : Math.round((x / width) * 200 + 30);
      pixels[i + 1] = inDisc ? 200 : Math.round((y / height) * 150 + 50);
      pixels[i + 2] = inDisc ? 60 : 170;
    }
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 92 }).toBuffer();
}

function decode(bytes: Uint8Array): PNG {
  return PNG.sync.read(Buffer.from(bytes));
}

async function writeSheet(name: string, golden: PNG, actual: PNG, diff: PNG): Promise<string> {
  mkdirSync(TMP_DIR, { recursive: true });
  const { width, height } = actual;
  const path = join(TMP_DIR, `${name}.sheet.png`);
  const gap = 8;
  const tile = (png: PNG, left: number) => ({
    input: PNG.sync.write(png),
    left,
    top: 0,
  });
  await sharp({
    create: {
      width: width * 3 + gap * 2,
      height: Math.max(height, golden.height),
      channels: 4,
      background: '#ff00ff',
    },
  })
    .composite([tile(golden, 0), tile(actual, width + gap), tile(diff, (width + gap) * 2)])
    .png()
    .toFile(path);
  return path;
}

export interface GoldenResult {
  pass: boolean;
  diffPixels: number;
  message: string;
}

/** Compares PNG bytes with test/goldens/<name>.png (or writes it when updating). */
export async function compareGolden(name: string, png: Uint8Array): Promise<GoldenResult> {
  const path = join(GOLDEN_DIR, `${name}.png`);
  if (updating) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, png);
    return { pass: true, diffPixels: 0, message: 'golden updated' };
  }
  if (!existsSync(path))
    return { pass: false, diffPixels: -1, message: `no golden ${path}: run npm run goldens:update` };
  const golden = decode(readFileSync(path));
  const actual = decode(png);
  if (golden.width !== actual.width || golden.height !== actual.height) {
    return {
      pass: false,
      diffPixels: -1,
      message: `size ${actual.width}x${actual.height}, golden ${golden.width}x${golden.height}`,
    };
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const diffPixels = pixelmatch(golden.data, actual.data, diff.data, actual.width, actual.height, {
    threshold: PIXEL_THRESHOLD,
  });
  const allowed = Math.floor(actual.width * actual.height * MAX_DIFF_RATIO);
  if (diffPixels <= allowed) return { pass: true, diffPixels, message: 'match' };
  const sheet = await writeSheet(name, golden, actual, diff);
  return {
    pass: false,
    diffPixels,
    message: `${diffPixels} pixels differ (allowed ${allowed}); see ${sheet}`,
  };
}
