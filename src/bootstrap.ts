/**
 * First start of an empty deployment: a `default` workspace with 100 credits and one key holding
 * every scope, printed once to standard output (never logged, never stored in clear). A claim in the
 * database makes sure only one of several starting instances does it.
 */
import { SCOPES } from './auth/scopes.ts';
import type { Store } from './store/index.ts';

export async function bootstrapIfEmpty(store: Store, print: (text: string) => void): Promise<boolean> {
  if ((await store.workspaces.count()) > 0) return false;
  if (!(await store.meta.claim('bootstrap', new Date().toISOString()))) return false;
  const workspace = await store.workspaces.create({ name: 'default', credits: 100, actor: 'bootstrap' });
  const key = await store.apiKeys.create({
    workspaceId: workspace.id,
    name: 'bootstrap key',
    scopes: [...SCOPES],
  });
  print(
    [
      '',
      'Platen created the workspace "default" with 100 credits and an API key with every scope.',
      'It is shown this once; store it now:',
      '',
      `  PLATEN_API_KEY=${key.key}`,
      `  workspace: ${workspace.id}`,
      '',
    ].join('\n'),
  );
  return true;
}
