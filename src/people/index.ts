/**
 * People who sign in: users (operator API), passwords (argon2id), the sign-in and sign-out pages
 * and the browser session; the HTML page shell and the session cookie the OAuth pages share.
 */
import type { Feature } from '../http/context.ts';
import { userOperatorRoutes, usersTag } from './operator-routes.ts';
import { passwordResetRoutes } from './reset-routes.ts';
import type { PeopleService } from './service.ts';
import { signInRoutes } from './signin-routes.ts';

export { sessionCookie } from './cookies.ts';
export { errorPage, escapeHtml, fromForeignOrigin, sendPage } from './html.ts';
export { ARGON2_PARAMETERS } from './passwords.ts';
export { PASSWORD_RESET_PATH, SETUP_PATH } from './paths.ts';
export { type NewUser, type PeopleOptions, PeopleService, type SignInOutcome } from './service.ts';
export { SIGNIN_PATH } from './signin-routes.ts';

export function usersFeature(people: PeopleService, baseUrl: string): Feature {
  return { name: 'users', openApiTag: usersTag, routes: userOperatorRoutes(people, baseUrl) };
}

/** Sign-in, sign-out and the password-reset page a reset link opens. */
export function signInFeature(people: PeopleService, baseUrl: string): Feature {
  return {
    name: 'sign-in',
    routes: async (app) => {
      await app.register(signInRoutes(people, baseUrl));
      await app.register(passwordResetRoutes(people, baseUrl));
    },
  };
}
