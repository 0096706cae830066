/**
 * First start of an empty deployment: a `default` workspace with 100 credits and one key holding
 * every scope, and a one-time link (24 hours) that creates the first operator of the console, both
 * printed once to standard output (never logged, never stored in clear). A claim in the database
 * makes sure only one of several starting instances does it.
 */
import { type ApiKeyService, SCOPES, systemPrincipal } from './auth/index.ts';
import { type PeopleService, SETUP_PATH } from './people/index.ts';
import type { Store } from './store/index.ts';
import type { WorkspaceService } from './workspaces/service.ts';

export interface BootstrapDeps {
  store: Store;
  workspaces: WorkspaceService;
  apiKeys: ApiKeyService;
  people: PeopleService;
  config: { baseUrl: string };
}

export async function bootstrapIfEmpty(deps: BootstrapDeps, print: (text: string) => void): Promise<boolean> {
  if ((await deps.workspaces.count()) > 0) return false;
  if (!(await deps.store.meta.claim('bootstrap', new Date().toISOString()))) return false;
  const bootstrap = systemPrincipal('bootstrap');
  const workspace = await deps.workspaces.create(bootstrap, { name: 'default', credits: 100 });
  const key = await deps.apiKeys.create(bootstrap, workspace.id, { name: 'bootstrap key', scopes: SCOPES });
  const { token: setup } = await deps.people.issueSetupLink(null);
  print(
    [
      '',
      'Platen created the workspace "default" with 100 credits and an API key with every scope.',
      'It is shown this once; store it now:',
      '',
      `  PLATEN_API_KEY=${key.key}`,
      `  workspace: ${workspace.id}`,
      '',
      'Create the first operator account of the console (this link works once, within 24 hours):',
      '',
      `  ${deps.config.baseUrl}${SETUP_PATH}?token=${setup}`,
      '',
    ].join('\n'),
  );
  return true;
}
