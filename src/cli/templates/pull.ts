/**
 * `platen templates pull <dir>`: every template of the key's workspace into the folder, one
 * canonical file each, with the images they name and the uploaded fonts they use. A renamed
 * template's file takes the new name and the old one goes, so no template ever has two files;
 * files the server has no template for are reported and left alone. Asset bytes never change under
 * an id, so an asset already in the folder is not downloaded again.
 */
import { mkdir } from 'node:fs/promises';
import type { Asset, Platen } from '@platen/client';
import { type Output, plural } from '../output.ts';
import {
  ASSETS_FOLDER,
  assetFileName,
  readAssetBytes,
  readLocalAssets,
  readTemplateFiles,
  removeFile,
  templateFileContent,
  templateFileName,
  writeLocalAsset,
  writeTemplateFile,
} from './files.ts';
import { fontFamiliesUsed, referencedAssetIds } from './references.ts';
import { readRemote } from './remote.ts';

export async function pull(platen: Platen, dir: string, out: Output): Promise<number> {
  // Read first: a broken file stops the pull before anything is fetched or overwritten.
  const local = await readTemplateFiles(dir);
  const remote = await readRemote(platen, 'all');
  await mkdir(dir, { recursive: true });

  // readTemplateFiles refuses two files for one id, so each template has at most one file here.
  const fileOf = new Map(local.flatMap((file) => (file.id ? [[file.id, file.fileName] as const] : [])));
  const templates = [...remote.templates.values()]
    .map((template) => ({ template, fileName: templateFileName(template) }))
    .sort((a, b) => a.fileName.localeCompare(b.fileName));
  let changed = 0;
  for (const { template, fileName } of templates) {
    const before = fileOf.get(template.id);
    const wrote = await writeTemplateFile(dir, fileName, templateFileContent(template));
    const renamed = before !== undefined && before !== fileName;
    if (renamed) {
      await removeFile(dir, before);
      out.line(`~ ${before} → ${fileName} (renamed)`);
    } else if (wrote) out.line(`${before === undefined ? '+' : '~'} ${fileName}`);
    if (wrote || renamed) changed++;
  }
  for (const file of local) {
    if (file.id && !remote.templates.has(file.id)) {
      out.problem(
        `! ${file.fileName}: template ${file.id} is not on the server; left as is (push would create it again)`,
      );
    }
  }

  const documents = templates.map(({ template }) => template.document);
  const assets = assetsUsed(documents, remote.assets, out);
  changed += await downloadAssets(platen, dir, assets, out);
  out.line(
    `Pulled ${plural(templates.length, 'template')} and ${plural(assets.length, 'asset')} into ${dir}: ` +
      `${changed === 0 ? 'nothing changed' : `${plural(changed, 'file')} changed`}.`,
  );
  return 0;
}

/** The images the documents name and the workspace fonts of the families their text uses. */
function assetsUsed(documents: unknown[], workspaceAssets: Asset[], out: Output): Asset[] {
  const byId = new Map(workspaceAssets.map((asset) => [asset.id, asset]));
  const used = new Map<string, Asset>();
  for (const id of [...new Set(documents.flatMap(referencedAssetIds))].sort()) {
    const asset = byId.get(id);
    if (asset) used.set(id, asset);
    else out.problem(`! asset:${id} is named by a template but is not on the server`);
  }
  const families = new Set(documents.flatMap((document) => [...fontFamiliesUsed(document)]));
  for (const asset of workspaceAssets) {
    if (asset.kind === 'font' && asset.fontFamily && families.has(asset.fontFamily.toLowerCase())) {
      used.set(asset.id, asset);
    }
  }
  return [...used.values()].sort((a, b) => a.id.localeCompare(b.id));
}

async function downloadAssets(platen: Platen, dir: string, assets: Asset[], out: Output): Promise<number> {
  const local = await readLocalAssets(dir);
  let changed = 0;
  for (const asset of assets) {
    const sidecar = {
      contentType: asset.mimeType,
      ...(asset.kind === 'font' && asset.fontFamily ? { family: asset.fontFamily } : {}),
    };
    const have = local.get(asset.id);
    const current =
      have !== undefined &&
      have.contentType === sidecar.contentType &&
      have.family === sidecar.family &&
      (await readAssetBytes(dir, have)).length === asset.byteSize;
    if (current) continue;
    const bytes = await platen.assets.download(asset);
    if (await writeLocalAsset(dir, { id: asset.id, ...sidecar }, bytes)) {
      out.line(`+ ${ASSETS_FOLDER}/${assetFileName(asset.id, asset.mimeType)}`);
      changed++;
    }
  }
  return changed;
}
