/**
 * The setup link: `GET /console/setup?token=…` shows a form (email, password twice) while the link
 * is unused and unexpired; `POST /console/setup` creates the first operator, spends the link and
 * signs them in with the OAuth pages' session cookie, then opens the console. A refused account (a
 * taken email) shows the form again with the reason, the link still usable. Plain server-rendered
 * pages, as sign-in.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { AppError } from '../core/errors.ts';
import { acceptFormBodies } from '../http/form-body.ts';
import {
  errorPage,
  escapeHtml,
  fromForeignOrigin,
  type PeopleService,
  SETUP_PATH,
  SIGNIN_PATH,
  sendPage,
  sessionCookie,
} from '../people/index.ts';

export const CONSOLE_PATH = '/console/';

const field = z.string().max(2048);
const setupForm = z.object({ token: field, email: field, password: field, confirm: field });
const setupQuery = z.object({ token: field.optional() });
const email = z.email().max(254);

function renderSetup(
  reply: FastifyReply,
  options: { token: string; status?: number; error?: string; email?: string },
) {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  return sendPage(reply, {
    status: options.status,
    title: 'Set up Platen',
    body:
      `<p class="muted">Create the first operator account. An operator manages every workspace, ` +
      `its keys, credits and the people who sign in.</p>${error}` +
      `<form method="post" action="${SETUP_PATH}">` +
      `<input type="hidden" name="token" value="${escapeHtml(options.token)}">` +
      `<label for="email">Email</label>` +
      `<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">` +
      `<label for="password">Password (at least 8 characters)</label>` +
      `<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>` +
      `<label for="confirm">Password again</label>` +
      `<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="8" required>` +
      `<button type="submit">Create the operator account</button></form>`,
  });
}

const spent = (reply: FastifyReply) =>
  sendPage(reply, {
    status: 410,
    title: 'Setup link expired',
    body:
      '<p class="error" role="alert">This setup link was used already or has expired.</p>' +
      `<p>If you set up Platen already, <a href="${SIGNIN_PATH}?next=${encodeURIComponent(CONSOLE_PATH)}">sign in</a>. ` +
      'An operator creates accounts in the console, under People. While no operator exists, ' +
      'the operator token issues a new link: <code>platen admin setup-link</code>.</p>',
  });

export function setupRoutes(people: PeopleService, baseUrl: string) {
  const cookie = sessionCookie(baseUrl);
  return async (app: FastifyInstance): Promise<void> => {
    acceptFormBodies(app);
    const config = { auth: 'none' } as const;
    const schema = { hide: true };

    app.get(SETUP_PATH, { config, schema }, async (request, reply) => {
      const query = setupQuery.safeParse(request.query);
      const token = query.success ? (query.data.token ?? '') : '';
      if (!token || !(await people.setupLinkValid(token))) return spent(reply);
      return renderSetup(reply, { token });
    });

    app.post(SETUP_PATH, { config, schema, bodyLimit: 16_384 }, async (request, reply) => {
      if (fromForeignOrigin(request.headers, baseUrl))
        return errorPage(reply, 403, 'Not allowed', 'This form was sent from another site.');
      const form = setupForm.safeParse(request.body);
      if (!form.success) return errorPage(reply, 400, 'Set up Platen', 'The form is incomplete.');
      const { token, password, confirm } = form.data;
      const again = (error: string) =>
        renderSetup(reply, { token, status: 400, error, email: form.data.email });
      if (!email.safeParse(form.data.email.trim()).success) return again('Enter a valid email address.');
      if (password.length < 8) return again('The password needs at least 8 characters.');
      if (password !== confirm) return again('The two passwords differ.');
      try {
        const outcome = await people.redeemSetupLink(token, { email: form.data.email, password }, request.ip);
        if (outcome.kind !== 'signed-in') return spent(reply);
        await people.signOut(cookie.read(request.headers));
        reply.header('set-cookie', cookie.set(outcome.token, people.sessionTtlSeconds));
        return reply.redirect(CONSOLE_PATH, 303);
      } catch (error) {
        if (error instanceof AppError && error.code === 'INVALID_SESSION') return spent(reply);
        // A refused account (a taken email) leaves the link usable: the form says why.
        if (error instanceof AppError && (error.code === 'CONFLICT' || error.code === 'VALIDATION_FAILED'))
          return again(error.message);
        throw error;
      }
    });
  };
}
