/**
 * `platen templates diff <dir>`: what `push` would change, one line per property, page and element
 * (matched by id), and the conflicts it would refuse. Reads only; exits 0 whatever it finds.
 */
import type { Platen } from '@platen/client';
import { describeChange } from '../../design/document-diff.ts';
import { type Output, plural } from '../output.ts';
import {
  ASSETS_FOLDER,
  assertFolder,
  readLocalAssets,
  readTemplateFiles,
  type TemplateFile,
} from './files.ts';
import { type AssetPlan, planAssets, planTemplate, type TemplatePlan } from './plan.ts';
import { readRemote } from './remote.ts';

/** How lines name a template: by name and id once it has one, by name and file before. */
export function labelOf(file: TemplateFile): string {
  return file.id ? `${file.name} (${file.id})` : `"${file.name}" (${file.fileName})`;
}

export function conflictMessage(plan: Extract<TemplatePlan, { kind: 'update' }>): string {
  const { file, server } = plan;
  const read = file.revision === undefined ? 'names no revision' : `was read at ${file.revision}`;
  return (
    `! ${labelOf(file)}: conflict: the server is at revision ${server.revision}, ${file.fileName} ${read}; ` +
    'pull and edit again, or push --force to overwrite'
  );
}

export const invalidMessage = (file: TemplateFile, problem: string): string =>
  `! ${labelOf(file)}: the document is not valid: ${problem}`;

function templateLines(plan: TemplatePlan): string[] {
  switch (plan.kind) {
    case 'unchanged':
      return [];
    case 'create': {
      const { file } = plan;
      const unknown = plan.unknownId ? `; ${file.id} is not on the server` : '';
      const line = `+ new template "${file.name}" (${file.fileName}${unknown})`;
      return plan.invalid === null ? [line] : [line, invalidMessage(file, plan.invalid)];
    }
    case 'update': {
      const label = labelOf(plan.file);
      return [
        ...(plan.conflict ? [conflictMessage(plan)] : []),
        ...(plan.invalid === null ? [] : [invalidMessage(plan.file, plan.invalid)]),
        ...plan.changes.map((change) => {
          const { sign, text } = describeChange(change);
          return `${sign} ${label}: ${text}`;
        }),
      ];
    }
  }
}

function assetLines(plan: AssetPlan): string[] {
  return [
    ...plan.upload.map(
      (asset) =>
        `+ asset ${ASSETS_FOLDER}/${asset.fileName} (${asset.contentType}${asset.family ? `, ${asset.family}` : ''}) to upload`,
    ),
    ...plan.unknown.map((id) => `! asset:${id} is neither on the server nor in ${ASSETS_FOLDER}/`),
  ];
}

export async function diff(platen: Platen, dir: string, out: Output): Promise<number> {
  await assertFolder(dir);
  const files = await readTemplateFiles(dir);
  const localAssets = await readLocalAssets(dir);
  const remote = await readRemote(platen, new Set(files.flatMap((file) => (file.id ? [file.id] : []))));
  const assets = planAssets(files, localAssets, remote.assets);
  const plans = files.map((file) => planTemplate(file, file.id ? remote.templates.get(file.id) : undefined));
  const lines = [...assetLines(assets), ...plans.flatMap(templateLines)];
  for (const line of lines) out.line(line);
  const count = (kind: TemplatePlan['kind']) => plans.filter((plan) => plan.kind === kind).length;
  if (lines.length === 0) {
    out.line(`Nothing to push: the server matches ${plural(files.length, 'template file')}.`);
    return 0;
  }
  const conflicts = plans.filter((plan) => plan.kind === 'update' && plan.conflict).length;
  out.line(
    `${count('create')} to create, ${count('update')} to change (${conflicts} in conflict), ` +
      `${count('unchanged')} unchanged, ${plural(assets.upload.length, 'asset')} to upload.`,
  );
  return 0;
}
