/**
 * Who is signed in to the console: `GET /console/api/session` (the person, the workspaces they
 * may open, with balances, and the CSRF token the console sends on every change) and
 * `POST /console/api/sign-out`.
 */
import type { FastifyInstance } from 'fastify';
import { requirePrincipal } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { type PeopleService, sessionCookie } from '../people/index.ts';
import type { WorkspaceService, WorkspaceView } from '../workspaces/service.ts';
import type { ConsoleSessions } from './session-auth.ts';

export function sessionRoutes(deps: {
  sessions: ConsoleSessions;
  people: PeopleService;
  workspaces: WorkspaceService;
  baseUrl: string;
}) {
  const { sessions, people, workspaces } = deps;
  const cookie = sessionCookie(deps.baseUrl);
  const config = { auth: 'console' } as const;
  const schema = { hide: true };

  async function workspacesOf(userId: string, operator: boolean): Promise<WorkspaceView[]> {
    if (operator) return workspaces.list();
    const mine = await people.workspacesOf(userId);
    return Promise.all(mine.map((workspace) => workspaces.get(workspace.id)));
  }

  return async (app: FastifyInstance): Promise<void> => {
    app.get('/console/api/session', { config, schema }, async (request, reply) => {
      requirePrincipal(request.principal);
      const person = await sessions.person(request, false);
      if (!person) throw new AppError('UNAUTHORIZED');
      reply.header('cache-control', 'no-store');
      return {
        user: { id: person.userId, email: person.email, operator: person.operator },
        workspaces: await workspacesOf(person.userId, person.operator),
        csrfToken: person.csrfToken,
      };
    });

    app.post('/console/api/sign-out', { config, schema }, async (request, reply) => {
      requirePrincipal(request.principal);
      await people.signOut(cookie.read(request.headers));
      return reply.header('set-cookie', cookie.clear()).status(204).send();
    });
  };
}
