/**
 * `platen templates push <dir> [--force]`: makes the server hold what the folder holds. Assets the
 * templates need and the server lacks are uploaded first; an upload gets a new id, and the folder's
 * references and asset files follow it. Then each file is created, saved with `If-Match: <the
 * revision it was read at>`, or renamed/shared, and rewritten as the server now holds it. A template
 * changed on the server since its file was read is refused unless --force. One failing template does
 * not stop the others (exit 1 at the end); a credential or network failure stops the push at once.
 */
import { type Platen, PlatenError } from '@platen/client';
import { type Output, oneLine, plural } from '../output.ts';
import { conflictMessage, labelOf } from './diff.ts';
import {
  ASSETS_FOLDER,
  assertFolder,
  readAssetBytes,
  readLocalAssets,
  readTemplateFiles,
  renameLocalAsset,
  type TemplateFile,
  templateFileContent,
  writeTemplateFile,
} from './files.ts';
import { type AssetPlan, type MetaPatch, planAssets, planTemplate, type TemplatePlan } from './plan.ts';
import { referencedAssetIds, replaceAssetIds } from './references.ts';
import { readRemote } from './remote.ts';

type Outcome = 'created' | 'saved' | 'updated' | 'unchanged' | 'refused';

export async function push(platen: Platen, dir: string, force: boolean, out: Output): Promise<number> {
  await assertFolder(dir);
  const files = await readTemplateFiles(dir);
  const localAssets = await readLocalAssets(dir);
  const remote = await readRemote(platen, new Set(files.flatMap((file) => (file.id ? [file.id] : []))));
  const assetPlan = planAssets(files, localAssets, remote.assets);
  const renamed = await uploadAssets(platen, dir, assetPlan, out);

  const tally: Record<Outcome | 'failed', number> = {
    created: 0,
    saved: 0,
    updated: 0,
    unchanged: 0,
    refused: 0,
    failed: 0,
  };
  for (const read of files) {
    const rewritten = referencedAssetIds(read.document).some((id) => renamed.has(id));
    const file = rewritten
      ? { ...read, document: replaceAssetIds(read.document, renamed) as TemplateFile['document'] }
      : read;
    const plan = planTemplate(file, file.id ? remote.templates.get(file.id) : undefined);
    let outcome: Outcome | 'failed';
    try {
      outcome = await apply(platen, dir, plan, force, out);
    } catch (error) {
      // A bad credential or a lost connection would fail every template the same way.
      if (!(error instanceof PlatenError) || error.status === 401 || error.status === 403) throw error;
      out.problem(`✗ ${labelOf(file)}: ${oneLine(error)}`);
      outcome = 'failed';
    }
    tally[outcome]++;
    if (rewritten && (outcome === 'unchanged' || outcome === 'refused' || outcome === 'failed')) {
      // Not saved, but its references must name the uploaded assets' new ids all the same.
      const { fileName, ...content } = file;
      await writeTemplateFile(dir, fileName, content);
    }
  }

  const done = tally.created + tally.saved + tally.updated + assetPlan.upload.length;
  if (done === 0 && tally.refused === 0 && tally.failed === 0) {
    out.line(`Nothing to push: the server matches ${plural(files.length, 'template file')}.`);
    return 0;
  }
  const problems = [
    ...(tally.refused > 0 ? [`${tally.refused} refused (conflict)`] : []),
    ...(tally.failed > 0 ? [`${tally.failed} failed`] : []),
  ];
  out.line(
    `Pushed: ${tally.created} created, ${tally.saved} saved, ${tally.updated} renamed or shared, ` +
      `${plural(assetPlan.upload.length, 'asset')} uploaded${problems.length > 0 ? `; ${problems.join(', ')}` : ''}.`,
  );
  return problems.length > 0 ? 1 : 0;
}

/** Uploads what the plan lists; returns each uploaded asset's folder id → its id on the server. */
async function uploadAssets(
  platen: Platen,
  dir: string,
  plan: AssetPlan,
  out: Output,
): Promise<Map<string, string>> {
  for (const id of plan.unknown) {
    out.problem(`! asset:${id} is neither on the server nor in ${ASSETS_FOLDER}/; it will be missing there`);
  }
  const renamed = new Map<string, string>();
  for (const asset of plan.upload) {
    const shown = `${ASSETS_FOLDER}/${asset.fileName}`;
    const bytes = await readAssetBytes(dir, asset);
    const uploaded = await platen.assets
      .upload(bytes, asset.contentType, asset.family ? { family: asset.family } : {})
      .catch((error: unknown) => {
        throw new Error(`${shown}: ${oneLine(error)}`);
      });
    if (uploaded.id !== asset.id) {
      await renameLocalAsset(dir, asset, uploaded.id);
      renamed.set(asset.id, uploaded.id);
    }
    out.line(`+ uploaded ${shown} as asset:${uploaded.id}`);
  }
  return renamed;
}

async function apply(
  platen: Platen,
  dir: string,
  plan: TemplatePlan,
  force: boolean,
  out: Output,
): Promise<Outcome> {
  const { file } = plan;
  if (plan.kind === 'unchanged') return 'unchanged';
  if (plan.kind === 'create') {
    const created = await platen.templates.create({
      name: file.name,
      document: file.document,
      shared: file.shared ?? false,
    });
    await writeTemplateFile(dir, file.fileName, templateFileContent(created));
    out.line(`+ created ${created.name} (${created.id}) from ${file.fileName}`);
    return 'created';
  }
  if (plan.conflict && !force) {
    out.problem(conflictMessage(plan));
    return 'refused';
  }
  let result = plan.server;
  const done: string[] = [];
  if (plan.documentChanged) {
    try {
      // --force saves over the revision just read: it overwrites that one, not a save made since.
      const ifMatch = force ? plan.server.revision : file.revision;
      result = await platen.templates.save(
        plan.server.id,
        { document: file.document, name: file.name },
        { ifMatch },
      );
    } catch (error) {
      if (!(error instanceof PlatenError && error.code === 'PRECONDITION_FAILED')) throw error;
      const revision = (error.details as { revision?: number } | undefined)?.revision;
      out.problem(
        conflictMessage({ ...plan, server: { ...plan.server, revision: revision ?? plan.server.revision } }),
      );
      return 'refused';
    }
    done.push(`revision ${plan.server.revision} → ${result.revision}`);
  }
  // The save carried the name already; sharing is only ever a PATCH.
  const patch: MetaPatch = plan.documentChanged
    ? plan.patch.shared === undefined
      ? {}
      : { shared: plan.patch.shared }
    : plan.patch;
  if (Object.keys(patch).length > 0) {
    await platen.templates.update(plan.server.id, patch);
    result = { ...result, ...patch };
    done.push(`${Object.keys(patch).join(' and ')} changed`);
  }
  await writeTemplateFile(dir, file.fileName, templateFileContent(result));
  out.line(
    `~ ${plan.documentChanged ? 'saved' : 'updated'} ${labelOf(file)}: ${plural(plan.changes.length, 'change')}, ${done.join(', ')}`,
  );
  return plan.documentChanged ? 'saved' : 'updated';
}
