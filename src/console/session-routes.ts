/**
 * Who is signed in to the console: `GET /console/api/session` (the person, the workspaces they
 * may open, with balances, and the CSRF token the console sends on every change) and
 * `POST /console/api/sign-out`.
 */
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { type PeopleService, sessionCookie } from '../people/index.ts';
import type { WorkspaceService } from '../workspaces/service.ts';
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

  return async (app: FastifyInstance): Promise<void> => {
    app.get('/console/api/session', { config, schema }, async (request, reply) => {
      const principal = principalOf(request);
      const person = await sessions.person(request, false);
      if (!person) throw new AppError('UNAUTHORIZED');
      reply.header('cache-control', 'no-store');
      return {
        user: { id: person.userId, email: person.email, operator: person.operator },
        workspaces: await workspaces.ofPerson(principal),
        csrfToken: person.csrfToken,
      };
    });

    app.post('/console/api/sign-out', { config, schema }, async (request, reply) => {
      principalOf(request);
      await people.signOut(cookie.read(request.headers));
      return reply.header('set-cookie', cookie.clear()).status(204).send();
    });
  };
}
