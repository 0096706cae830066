/**
 * People in the console, for tests: create a user through the operator API, sign in through the
 * real sign-in form, and read the session's CSRF token from `GET /console/api/session`.
 */
import { admin } from './server.ts';

export interface ConsolePerson {
  userId: string;
  email: string;
  password: string;
  cookie: string;
  csrf: string;
  /** Headers for the machine API (`/v1`) as this person in `workspaceId`. */
  v1(workspaceId: string): Record<string, string>;
  /** Headers for a change on `/console/api` or `/admin/v1`. */
  change(): Record<string, string>;
}

let people = 0;

export async function signIn(
  base: string,
  email: string,
  password: string,
): Promise<{ cookie: string; csrf: string }> {
  const response = await fetch(`${base}/oauth/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ email, password }).toString(),
  });
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const session = await fetch(`${base}/console/api/session`, { headers: { cookie } });
  const body = (await session.json()) as { csrfToken: string };
  return { cookie, csrf: body.csrfToken };
}

/** A new person (an operator, or a member of `workspaceIds`), signed in. */
export async function consolePerson(
  base: string,
  options: { operator?: boolean; workspaceIds?: string[] },
): Promise<ConsolePerson> {
  people += 1;
  const email = `person${people}-${Date.now()}@example.com`;
  const password = 'correct horse battery';
  const created = await admin(base, 'POST', '/users', {
    email,
    password,
    operator: options.operator ?? false,
    workspaceIds: options.workspaceIds ?? [],
  });
  if (created.status !== 201) throw new Error(`user creation answered ${created.status}`);
  const { cookie, csrf } = await signIn(base, email, password);
  return {
    userId: created.json.id,
    email,
    password,
    cookie,
    csrf,
    v1: (workspaceId) => ({ cookie, 'x-platen-csrf': csrf, 'x-workspace-id': workspaceId }),
    change: () => ({ cookie, 'x-platen-csrf': csrf }),
  };
}
