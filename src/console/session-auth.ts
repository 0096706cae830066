/**
 * The console's credential: the OAuth pages' session cookie, turned into a person's principal.
 * - `console` routes (`/console/api/...`) read the workspace from `:workspaceId`; reads need only
 *   the cookie, every change also the `X-Platen-Csrf` header (an HMAC under the session's secret,
 *   which another site can neither read nor compute; SameSite=Lax keeps the cookie home as well).
 * - The machine API (`/v1`) takes a person when there is no API key but the cookie and the CSRF
 *   header, on every method, with the workspace named by `X-Workspace-Id`: the console uses the
 *   very routes and services the API keys use.
 * - The operator API takes an operator's session the same way, beside the operator token.
 * A member who names a workspace that is not theirs gets 404, as for an id that does not exist.
 */

import { type Authenticator, type AuthInput, type Principal, SCOPES } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { type PeopleService, sessionCookie } from '../people/index.ts';
import type { Store } from '../store/index.ts';

export const CSRF_HEADER = 'x-platen-csrf';
export const CSRF_PURPOSE = 'console';
const ALL_SCOPES = new Set(SCOPES);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

export interface Person {
  userId: string;
  email: string;
  operator: boolean;
  csrfToken: string;
  /** The session's id (the SHA-256 of its cookie): a console studio token is bound to it. */
  sessionId: string;
}

export class ConsoleSessions {
  private readonly cookie;

  constructor(
    private readonly people: PeopleService,
    private readonly store: Store,
    baseUrl: string,
  ) {
    this.cookie = sessionCookie(baseUrl);
  }

  /** The signed-in person, checking the CSRF header when `needCsrf`; null when not signed in. */
  async person(input: Pick<AuthInput, 'headers'>, needCsrf: boolean): Promise<Person | null> {
    const session = await this.people.session(this.cookie.read(input.headers));
    if (!session) return null;
    if (needCsrf && !this.people.checkCsrf(session, CSRF_PURPOSE, input.headers[CSRF_HEADER])) return null;
    const user = await this.store.users.get(session.userId);
    if (!user) return null;
    const csrfToken = this.people.csrfToken(session, CSRF_PURPOSE);
    return {
      userId: user.id,
      email: user.email,
      operator: user.operator,
      csrfToken,
      sessionId: session.tokenHash,
    };
  }

  /** Whether the request carries the console's marks (cookie and CSRF header) and no API key. */
  carriesConsoleSession(input: AuthInput): boolean {
    const { headers } = input;
    if (headers.authorization !== undefined || headers['x-api-key'] !== undefined) return false;
    return headers[CSRF_HEADER] !== undefined && this.cookie.read(headers) !== null;
  }

  /** The person's principal in a workspace they may use: operators any, members their own. */
  async inWorkspace(person: Person, workspaceId: string, address: string): Promise<Principal> {
    const workspace = await this.workspaceFor(person, workspaceId);
    if (!workspace) throw new AppError('NOT_FOUND');
    return { workspaceId, scopes: ALL_SCOPES, actor: actorOf(person), address };
  }

  private async workspaceFor(person: Person, workspaceId: string) {
    if (person.operator) return this.store.workspaces.get(workspaceId);
    const mine = await this.store.users.workspacesOf(person.userId);
    return mine.find((workspace) => workspace.id === workspaceId) ?? null;
  }

  /** `/console/api/...`: the person, in the `:workspaceId` workspace when the route has one. */
  authenticator(): Authenticator {
    return async (input) => {
      const person = await this.person(input, !SAFE_METHODS.has(input.method.toUpperCase()));
      if (!person) throw new AppError('UNAUTHORIZED', 'Sign in to the console first.');
      const workspaceId = input.params.workspaceId;
      if (workspaceId !== undefined)
        return { principal: await this.inWorkspace(person, workspaceId, input.address) };
      // No workspace: the principal names the person only; workspace-bound calls find nothing.
      return {
        principal: { workspaceId: '', scopes: new Set(), actor: actorOf(person), address: input.address },
      };
    };
  }

  /** `/v1`: an API key as before, or a person naming the workspace with `X-Workspace-Id`. */
  machineApi(apiKey: Authenticator): Authenticator {
    return async (input) => {
      if (!this.carriesConsoleSession(input)) return apiKey(input);
      const person = await this.person(input, true);
      if (!person) throw new AppError('INVALID_API_KEY');
      const named = input.headers['x-workspace-id'];
      if (typeof named !== 'string') throw new AppError('NOT_FOUND', 'Name the workspace (X-Workspace-Id).');
      return { principal: await this.inWorkspace(person, named, input.address) };
    };
  }

  /** The operator API: the operator token as before, or an operator's console session. */
  operatorApi(operatorToken: Authenticator): Authenticator {
    return async (input) => {
      if (!this.carriesConsoleSession(input)) return operatorToken(input);
      const person = await this.person(input, true);
      if (!person?.operator) throw new AppError('UNAUTHORIZED');
      return {
        principal: { workspaceId: '', scopes: new Set(), actor: actorOf(person), address: input.address },
      };
    };
  }
}

const actorOf = (person: Person) =>
  ({ type: 'person', userId: person.userId, email: person.email, operator: person.operator }) as const;
