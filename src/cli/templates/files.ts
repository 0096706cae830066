/**
 * The templates folder on disk (docs/templates-as-code.md): one `<slug>.<templateId>.json` per
 * template holding `{document, id, name, revision, shared}`, and `assets/<assetId>.<ext>` beside an
 * `assets/<assetId>.json` sidecar saying how to upload it again. Everything is written canonically
 * (keys sorted at every depth, arrays in order, 2-space indent, final newline) and only when the
 * bytes differ, so a pull that brings nothing new leaves the folder exactly as it was.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TemplateWithDocument } from '@platen/client';
import { z } from 'zod';
import { fromZodIssues } from '../../design/index.ts';

/** Something wrong in the folder or the command line: the user fixes it, the server is not involved. */
export class FolderError extends Error {
  override readonly name = 'FolderError';
}

const templateFileSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().trim().min(1).max(200),
  shared: z.boolean().optional(),
  revision: z.number().int().min(0).optional(),
  document: z.record(z.string(), z.unknown()),
});

const assetSidecarSchema = z.strictObject({
  contentType: z
    .string()
    .regex(/^(image|font|video|audio)\/[\w.+-]+$/, 'must be an image/…, font/…, video/… or audio/… type'),
  family: z.string().trim().min(1).max(100).optional(),
});

/** A template file as written: no `id` yet for a template only the folder has. */
export type TemplateFileContent = z.infer<typeof templateFileSchema>;
export type TemplateFile = TemplateFileContent & { fileName: string };
export type AssetSidecar = z.infer<typeof assetSidecarSchema>;
/** An asset of the folder: `assets/<id>.<ext>`, with what its sidecar says. */
export type LocalAsset = AssetSidecar & { id: string; fileName: string };

export const ASSETS_FOLDER = 'assets';

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** The one way this folder's JSON is written: the same value always gives the same bytes. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** A readable, file-system-safe form of a template name; the id after it keeps names unique. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  return slug || 'template';
}

/**
 * An id as part of a file name. Ids come from the server (or, for hand-made assets, from the folder's
 * own file names), and a server is not trusted to send only `tpl_…`: anything that could leave the
 * folder (`/`, `..`) or confuse a shell is refused before it reaches a path.
 */
export function safeId(id: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(id)) {
    throw new Error(`refusing an id that is not a safe file name: ${JSON.stringify(id.slice(0, 80))}`);
  }
  return id;
}

export const templateFileName = (template: { name: string; id: string }): string =>
  `${slugOf(template.name)}.${safeId(template.id)}.json`;

/** What a template file holds for a template as the server answered it. */
export function templateFileContent(template: TemplateWithDocument): TemplateFileContent {
  const { id, name, shared, revision, document } = template;
  return { document, id, name, revision, shared };
}

function describeIssues(error: z.ZodError): string {
  const [first] = fromZodIssues(error.issues);
  return first ? `${first.path}: ${first.message}` : error.message;
}

async function readJson(path: string, shown: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new FolderError(`${shown}: not valid JSON (${reason})`);
  }
}

async function jsonFileNames(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The folder's template files, by file name; a file that is not one stops the command. */
export async function readTemplateFiles(dir: string): Promise<TemplateFile[]> {
  const files: TemplateFile[] = [];
  const byId = new Map<string, string>();
  for (const fileName of await jsonFileNames(dir)) {
    const parsed = templateFileSchema.safeParse(await readJson(join(dir, fileName), fileName));
    if (!parsed.success) throw new FolderError(`${fileName}: ${describeIssues(parsed.error)}`);
    const { id } = parsed.data;
    const other = id === undefined ? undefined : byId.get(id);
    if (id !== undefined && other) {
      // Likely a copy made to start a new template: neither is dropped on a guess.
      throw new FolderError(
        `${other} and ${fileName} both hold template ${id}; remove id and revision from the copy`,
      );
    }
    if (id !== undefined) byId.set(id, fileName);
    files.push({ ...parsed.data, fileName });
  }
  return files;
}

/** Writes `text` unless the file already holds exactly it; says whether it wrote. */
async function writeIfChanged(path: string, text: string | Uint8Array): Promise<boolean> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : Buffer.from(text);
  const current = await readFile(path).catch(() => null);
  if (current?.equals(bytes)) return false;
  await writeFile(path, bytes);
  return true;
}

export function writeTemplateFile(
  dir: string,
  fileName: string,
  content: TemplateFileContent,
): Promise<boolean> {
  return writeIfChanged(join(dir, fileName), stableJson(content));
}

export async function removeFile(dir: string, fileName: string): Promise<void> {
  await rm(join(dir, fileName), { force: true });
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'font/ttf': 'ttf',
  'font/otf': 'otf',
  'font/woff': 'woff',
  'font/woff2': 'woff2',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'audio/mp4': 'm4a',
  'audio/webm': 'weba',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
};

export const assetFileName = (id: string, contentType: string): string =>
  `${safeId(id)}.${EXTENSIONS[contentType] ?? 'bin'}`;

const sidecarFileName = (id: string): string => `${safeId(id)}.json`;

/** The folder's assets, by the sidecars in `assets/`; a sidecar without its file stops the command. */
export async function readLocalAssets(dir: string): Promise<Map<string, LocalAsset>> {
  const folder = join(dir, ASSETS_FOLDER);
  const assets = new Map<string, LocalAsset>();
  const names = await jsonFileNames(folder);
  const present = new Set(names.length > 0 ? await readdir(folder) : []);
  for (const sidecar of names) {
    const shown = `${ASSETS_FOLDER}/${sidecar}`;
    const parsed = assetSidecarSchema.safeParse(await readJson(join(folder, sidecar), shown));
    if (!parsed.success) throw new FolderError(`${shown}: ${describeIssues(parsed.error)}`);
    const id = sidecar.slice(0, -'.json'.length);
    const fileName = assetFileName(id, parsed.data.contentType);
    if (!present.has(fileName)) throw new FolderError(`${shown}: ${ASSETS_FOLDER}/${fileName} is missing`);
    assets.set(id, { ...parsed.data, id, fileName });
  }
  return assets;
}

/** Writes an asset and its sidecar (each only if it differs); says whether anything was written. */
export async function writeLocalAsset(
  dir: string,
  asset: { id: string } & AssetSidecar,
  bytes: Uint8Array,
): Promise<boolean> {
  const folder = join(dir, ASSETS_FOLDER);
  await mkdir(folder, { recursive: true });
  const sidecar: AssetSidecar = {
    contentType: asset.contentType,
    ...(asset.family ? { family: asset.family } : {}),
  };
  const wroteFile = await writeIfChanged(join(folder, assetFileName(asset.id, asset.contentType)), bytes);
  const wroteSidecar = await writeIfChanged(join(folder, sidecarFileName(asset.id)), stableJson(sidecar));
  return wroteFile || wroteSidecar;
}

export function readAssetBytes(dir: string, asset: LocalAsset): Promise<Buffer> {
  return readFile(join(dir, ASSETS_FOLDER, asset.fileName));
}

/** After an upload gave the asset a new id: its file and sidecar take that id's names. */
export async function renameLocalAsset(dir: string, asset: LocalAsset, id: string): Promise<void> {
  const folder = join(dir, ASSETS_FOLDER);
  await rename(join(folder, asset.fileName), join(folder, assetFileName(id, asset.contentType)));
  await rename(join(folder, sidecarFileName(asset.id)), join(folder, sidecarFileName(id)));
}

/** `diff` and `push` read an existing folder; a mistyped path must not look like an empty one. */
export async function assertFolder(dir: string): Promise<void> {
  const found = await stat(dir).catch(() => null);
  if (!found?.isDirectory()) throw new FolderError(`${dir} is not a folder`);
}
