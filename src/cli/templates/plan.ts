/**
 * What a push would do, decided from the folder and what the server holds, without doing any of it:
 * per template file create, save (listing the property changes), rename or share, nothing, or
 * refuse as a conflict; and which of the folder's assets the server lacks. `diff` prints the plan,
 * `push` carries it out, so the two cannot disagree. Pure: no I/O.
 */
import type { Asset, TemplateWithDocument } from '@platen/client';
import { type Change, diffDocuments } from '../../design/document-diff.ts';
import { parseDesignDocument } from '../../design/index.ts';
import type { LocalAsset, TemplateFile } from './files.ts';
import { fontFamiliesUsed, referencedAssetIds } from './references.ts';

/** Name and sharing, which `PATCH` changes without a new revision. */
export interface MetaPatch {
  name?: string;
  shared?: boolean;
}

export type TemplatePlan =
  | {
      kind: 'create';
      file: TemplateFile;
      /** The file names an id, but not one of this workspace's templates. */
      unknownId: boolean;
      /** Why the document would be refused, when it can be told here. */
      invalid: string | null;
    }
  | {
      kind: 'update';
      file: TemplateFile;
      server: TemplateWithDocument;
      /** Name and sharing changes first, then the document's, property by property. */
      changes: Change[];
      documentChanged: boolean;
      patch: MetaPatch;
      /** The document changed here and the server is not at the revision the file was read at. */
      conflict: boolean;
      invalid: string | null;
    }
  | { kind: 'unchanged'; file: TemplateFile; server: TemplateWithDocument };

type Normalised = { ok: true; document: unknown } | { ok: false; problem: string };

/**
 * The server stores documents with every default filled in; both sides go through the same parse so
 * a default the file leaves out is no change.
 */
function normalise(document: unknown): Normalised {
  const result = parseDesignDocument(document);
  if (result.ok) return result;
  const [first] = result.issues;
  const more = result.issues.length > 1 ? ` (and ${result.issues.length - 1} more)` : '';
  return { ok: false, problem: first ? `${first.path}: ${first.message}${more}` : 'not a design document' };
}

export function planTemplate(file: TemplateFile, server: TemplateWithDocument | undefined): TemplatePlan {
  const local = normalise(file.document);
  const invalid = local.ok ? null : local.problem;
  if (!server) return { kind: 'create', file, unknownId: file.id !== undefined, invalid };

  const patch: MetaPatch = {};
  const changes: Change[] = [];
  if (file.name !== server.name) {
    patch.name = file.name;
    changes.push({ op: 'set', path: 'name', from: server.name, to: file.name });
  }
  if (file.shared !== undefined && file.shared !== server.shared) {
    patch.shared = file.shared;
    changes.push({ op: 'set', path: 'shared', from: server.shared, to: file.shared });
  }
  const remote = normalise(server.document);
  const documentChanges = local.ok
    ? diffDocuments(remote.ok ? remote.document : server.document, local.document)
    : [];
  const documentChanged = !local.ok || documentChanges.length > 0;
  if (!documentChanged && changes.length === 0) return { kind: 'unchanged', file, server };
  return {
    kind: 'update',
    file,
    server,
    changes: [...changes, ...documentChanges],
    documentChanged,
    patch,
    conflict: documentChanged && file.revision !== server.revision,
    invalid,
  };
}

export interface AssetPlan {
  /** The folder's assets that the templates use and the server lacks. */
  upload: LocalAsset[];
  /** `asset:<id>` names found neither on the server nor in the folder. */
  unknown: string[];
}

/**
 * Images are matched by id; fonts by family, since a document names a font by family only and an
 * upload to another workspace gets a new id anyway.
 */
export function planAssets(
  files: readonly TemplateFile[],
  local: ReadonlyMap<string, LocalAsset>,
  server: readonly Asset[],
): AssetPlan {
  const serverIds = new Set(server.map((asset) => asset.id));
  const serverFamilies = new Set(
    server.flatMap((asset) =>
      asset.kind === 'font' && asset.fontFamily ? [asset.fontFamily.toLowerCase()] : [],
    ),
  );
  const referenced = new Set(files.flatMap((file) => referencedAssetIds(file.document)));
  const families = new Set(files.flatMap((file) => [...fontFamiliesUsed(file.document)]));
  const upload: LocalAsset[] = [];
  const unknown: string[] = [];
  for (const id of [...referenced].sort()) {
    if (serverIds.has(id)) continue;
    const asset = local.get(id);
    if (asset) upload.push(asset);
    else unknown.push(id);
  }
  for (const asset of [...local.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    const family = asset.family?.toLowerCase();
    const neededFont =
      asset.contentType.startsWith('font/') &&
      family !== undefined &&
      families.has(family) &&
      !serverFamilies.has(family) &&
      !serverIds.has(asset.id);
    if (neededFont) upload.push(asset);
  }
  return { upload, unknown };
}
