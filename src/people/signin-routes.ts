/**
 * The sign-in pages: `GET /oauth/signin` (the form: labelled "Email" and "Password", a "Sign in"
 * button), `POST /oauth/signin` (checks the password within the brute-force limits, starts a new
 * session, 303 to where the person was going) and `POST /oauth/signout` (CSRF token and Origin
 * checked). `next` may only name a path under /oauth/ or /console on this service: never an open
 * redirect.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { acceptFormBodies } from '../http/form-body.ts';
import { DEVICE_COOKIE_MAX_AGE_SECONDS, deviceCookie, sessionCookie } from './cookies.ts';
import { errorPage, escapeHtml, fromForeignOrigin, sendPage } from './html.ts';
import type { PeopleService } from './service.ts';

export const SIGNIN_PATH = '/oauth/signin';
export const SIGNOUT_PATH = '/oauth/signout';

const field = z.string().max(2048);
const signInForm = z.object({ email: field, password: field, next: field.optional() });
const signOutForm = z.object({ csrf: field.optional() });
const signInQuery = z.object({ next: field.optional() });

/** A same-service path under /oauth/ or /console (the web console), or null. */
export function safeNext(next: string | undefined): string | null {
  if (!next?.startsWith('/') || next.includes('\\') || next.includes('//')) return null;
  const url = new URL(next, 'http://platen.invalid');
  const allowed =
    url.pathname.startsWith('/oauth/') || url.pathname === '/console' || url.pathname.startsWith('/console/');
  return url.origin === 'http://platen.invalid' && allowed ? url.pathname + url.search : null;
}

const waitText = (seconds: number) =>
  seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `about ${Math.ceil(seconds / 60)} minutes`;

function renderSignIn(
  reply: FastifyReply,
  options: { next: string | null; status?: number; error?: string; email?: string },
) {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const next = options.next ? `<input type="hidden" name="next" value="${escapeHtml(options.next)}">` : '';
  return sendPage(reply, {
    status: options.status,
    title: 'Sign in',
    body:
      `${error}<form method="post" action="${SIGNIN_PATH}">${next}` +
      `<label for="email">Email</label>` +
      `<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">` +
      `<label for="password">Password</label>` +
      `<input id="password" name="password" type="password" autocomplete="current-password" required>` +
      `<button type="submit">Sign in</button></form>`,
  });
}

export function signInRoutes(people: PeopleService, baseUrl: string) {
  const cookie = sessionCookie(baseUrl);
  const device = deviceCookie(baseUrl);
  return async (app: FastifyInstance): Promise<void> => {
    acceptFormBodies(app);
    const config = { auth: 'none' } as const;
    const schema = { hide: true };

    app.get(SIGNIN_PATH, { config, schema }, async (request, reply) => {
      const query = signInQuery.safeParse(request.query);
      const next = safeNext(query.success ? query.data.next : undefined);
      const session = await people.session(cookie.read(request.headers));
      if (session && next) return reply.redirect(next, 302);
      if (!session) return renderSignIn(reply, { next });
      return sendPage(reply, {
        title: 'Signed in',
        body:
          `<p>You are signed in as <strong>${escapeHtml(session.email)}</strong>.</p>` +
          `<form method="post" action="${SIGNOUT_PATH}">` +
          `<input type="hidden" name="csrf" value="${escapeHtml(people.csrfToken(session, 'signout'))}">` +
          `<button type="submit">Sign out</button></form>`,
      });
    });

    app.post(SIGNIN_PATH, { config, schema, bodyLimit: 16_384 }, async (request, reply) => {
      if (fromForeignOrigin(request.headers, baseUrl))
        return errorPage(reply, 403, 'Not allowed', 'This form was sent from another site.');
      const form = signInForm.safeParse(request.body);
      if (!form.success)
        return renderSignIn(reply, { next: null, status: 400, error: 'Enter your email and password.' });
      const next = safeNext(form.data.next);
      const outcome = await people.signIn(
        form.data.email,
        form.data.password,
        request.ip,
        device.read(request.headers),
      );
      if (outcome.kind === 'locked') {
        return sendPage(reply, {
          status: 429,
          title: 'Too many attempts',
          headers: { 'retry-after': String(outcome.retryAfterSeconds) },
          body: `<p class="error" role="alert">Too many failed sign-in attempts. Try again later (in ${waitText(outcome.retryAfterSeconds)}).</p>`,
        });
      }
      if (outcome.kind === 'invalid')
        return renderSignIn(reply, {
          next,
          status: 400,
          error: 'The email or password is wrong.',
          email: form.data.email,
        });
      // A fresh session at every sign-in (no fixation); the one the browser had ends.
      await people.signOut(cookie.read(request.headers));
      reply.header('set-cookie', [
        cookie.set(outcome.token, people.sessionTtlSeconds),
        device.set(outcome.device, DEVICE_COOKIE_MAX_AGE_SECONDS),
      ]);
      return reply.redirect(next ?? SIGNIN_PATH, 303);
    });

    app.post(SIGNOUT_PATH, { config, schema, bodyLimit: 16_384 }, async (request, reply) => {
      const token = cookie.read(request.headers);
      const session = await people.session(token);
      const form = signOutForm.safeParse(request.body);
      if (!session) return errorPage(reply, 400, 'Not signed in', 'You are not signed in.');
      if (
        fromForeignOrigin(request.headers, baseUrl) ||
        !form.success ||
        !people.checkCsrf(session, 'signout', form.data.csrf)
      )
        return errorPage(reply, 403, 'Not allowed', 'This form has expired or was sent from another site.');
      await people.signOut(token);
      reply.header('set-cookie', cookie.clear());
      return sendPage(reply, { title: 'Signed out', body: '<p>You are signed out.</p>' });
    });
  };
}
