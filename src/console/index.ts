/**
 * The web console for operators and workspace members: the one-time setup link that creates the
 * first operator (setup-routes.ts), the person's session as a credential (session-auth.ts: the
 * OAuth pages' cookie plus a CSRF header), the console's own API for a workspace's keys, webhooks,
 * embeds and studio (api-routes.ts). The audit log is its own feature (src/audit).
 * The console's screens are a Vite app beside the studio (studio/console.html, studio/src/console).
 */
import type { Feature } from '../http/context.ts';
import type { PeopleService } from '../people/index.ts';
import type { WorkspaceService } from '../workspaces/service.ts';
import { type ConsoleApiServices, consoleApiRoutes } from './api-routes.ts';
import type { ConsoleSessions } from './session-auth.ts';
import { sessionRoutes } from './session-routes.ts';
import { setupRoutes } from './setup-routes.ts';

export { ConsoleSessions, CSRF_HEADER } from './session-auth.ts';

export interface ConsoleDeps extends Omit<ConsoleApiServices, 'sessions'> {
  people: PeopleService;
  workspaces: WorkspaceService;
  consoleSessions: ConsoleSessions;
  baseUrl: string;
}

export function consoleFeature(deps: ConsoleDeps): Feature {
  return {
    name: 'console',
    routes: async (app) => {
      await app.register(setupRoutes(deps.people, deps.baseUrl));
      await app.register(sessionRoutes({ ...deps, sessions: deps.consoleSessions }));
      await app.register(consoleApiRoutes({ ...deps, sessions: deps.consoleSessions }));
    },
  };
}
