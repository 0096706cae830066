/**
 * `platen render <document.json>`: renders a design document locally, without a server, with the
 * same renderer the service uses (in process, no worker pool). Exit codes: 0 done, 1 render
 * failed, 2 bad usage or an invalid document.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { applyModifications, parseDesignDocument } from '../design/index.ts';
import { renderInProcess } from '../engine/in-process.ts';
import { type JobAsset, type JobFont, type OutputFormat, RenderError } from '../engine/index.ts';
import { option, parseArgs } from './args.ts';

const usage = `Usage: platen render <document.json> [options]
  --var name=value        set a variable (repeatable)
  --format png|jpeg|webp|pdf|mp4|webm|gif   output format (default png); a video plays the
                          page, or with --all-pages every page as scenes, into one file
  --out file              output file (default: the document name with the format's extension);
                          raster output of several pages adds -<pageId> before the extension
  --scale N               raster scale 1-4 (default 1)
  --quality N             quality 1-100 (default 90; video 75)
  --time-ms N             stills of an animated page: its state N ms into the page
                          (default: once every in-animation has ended)
  --fps N                 video frames per second 1-60 (default 30; gif 15)
  --no-dither             gif: no dithering of the palette
  --page id               page to render (default: the active page)
  --all-pages             render every page (pdf: one file; png/jpeg: one file per page)
  --asset id=path         bytes for images written as asset:<id> (repeatable)
  --font Family=path      a font file usable as fontFamily "Family" (repeatable)
  --allow-private-urls    let image URLs reach private and loopback addresses`;

const FORMATS: readonly OutputFormat[] = ['png', 'jpeg', 'webp', 'pdf', 'mp4', 'webm', 'gif'];
const EXTENSIONS: Record<OutputFormat, string> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
  pdf: 'pdf',
  mp4: 'mp4',
  webm: 'webm',
  gif: 'gif',
};
const MIME_BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.m4a': 'audio/mp4',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

class UsageError extends Error {}

function pairs(values: string[] | undefined, what: string): [string, string][] {
  return (values ?? []).map((value) => {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new UsageError(`${what} must be written name=value, got '${value}'`);
    return [value.slice(0, eq), value.slice(eq + 1)];
  });
}

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) throw new UsageError(`--${name} must be a number`);
  return number;
}

async function readAssets(specs: [string, string][]): Promise<Record<string, JobAsset>> {
  const assets: Record<string, JobAsset> = {};
  for (const [id, path] of specs) {
    assets[id] = {
      bytes: await readFile(path),
      mimeType: MIME_BY_EXTENSION[extname(path).toLowerCase()] ?? 'application/octet-stream',
    };
  }
  return assets;
}

async function readFonts(specs: [string, string][]): Promise<JobFont[]> {
  return Promise.all(
    specs.map(async ([family, path], i) => ({
      family,
      bytes: await readFile(path),
      assetId: `cli_font_${i}`,
    })),
  );
}

function outputPath(out: string, pageId: string, several: boolean): string {
  if (!several) return out;
  const ext = extname(out);
  return `${out.slice(0, out.length - ext.length)}-${pageId}${ext}`;
}

async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const [documentPath] = args.positionals;
  if (!documentPath || args.options.has('help')) throw new UsageError('');
  const format = (option(args, 'format') ?? 'png') as OutputFormat;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(documentPath, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read ${documentPath}: ${(error as Error).message}`);
  }
  const parsed = parseDesignDocument(raw);
  if (!parsed.ok) throw new UsageError(parsed.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  const modified = applyModifications(
    parsed.document,
    Object.fromEntries(pairs(args.options.get('var'), '--var')),
  );
  if (!modified.ok) throw new UsageError(modified.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  const document = modified.document;
  const pageIds = args.options.has('all-pages')
    ? document.pages.map((page) => page.id)
    : [option(args, 'page') ?? document.activePageId];
  const files = await renderInProcess({
    document,
    pageIds,
    format,
    scale: numberOption(option(args, 'scale'), 'scale'),
    quality: numberOption(option(args, 'quality'), 'quality'),
    timeMs: numberOption(option(args, 'time-ms'), 'time-ms'),
    fps: numberOption(option(args, 'fps'), 'fps'),
    ...(args.options.has('no-dither') ? { dither: false } : {}),
    workspaceId: 'local',
    assets: await readAssets(pairs(args.options.get('asset'), '--asset')),
    fonts: await readFonts(pairs(args.options.get('font'), '--font')),
    allowPrivateUrls: args.options.has('allow-private-urls'),
  });
  const out = option(args, 'out') ?? `${basename(documentPath, extname(documentPath))}.${EXTENSIONS[format]}`;
  for (const file of files) {
    const path = outputPath(out, file.pageIds[0] ?? 'page', files.length > 1);
    await writeFile(path, file.bytes);
    process.stdout.write(`${path} (${file.width}x${file.height}, ${file.bytes.byteLength} bytes)\n`);
  }
  return 0;
}

export async function runRenderCommand(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(error.message ? `${error.message}\n\n${usage}\n` : `${usage}\n`);
      return 2;
    }
    if (error instanceof RenderError) {
      process.stderr.write(`render failed: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
