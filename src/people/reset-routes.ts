/**
 * The page a password-reset link opens (`/console/reset/<token>`, issued by an operator): a form
 * for the new password (twice) while the link is unused and unexpired; sending it spends the link,
 * ends every session of the person, and signs them in to the console. Plain server-rendered pages,
 * as sign-in; the token sits in the path, which the request log redacts.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { AppError } from '../core/errors.ts';
import { acceptFormBodies } from '../http/form-body.ts';
import { sessionCookie } from './cookies.ts';
import { errorPage, escapeHtml, fromForeignOrigin, sendPage } from './html.ts';
import { PASSWORD_RESET_PATH } from './paths.ts';
import type { PeopleService } from './service.ts';
import { SIGNIN_PATH } from './signin-routes.ts';

const CONSOLE_PATH = '/console/';
const field = z.string().max(2048);
const params = z.object({ token: z.string().max(200) });
const resetForm = z.object({ password: field, confirm: field });

function renderReset(reply: FastifyReply, token: string, options: { status?: number; error?: string } = {}) {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  return sendPage(reply, {
    status: options.status,
    title: 'Choose a new password',
    body:
      `${error}<form method="post" action="${PASSWORD_RESET_PATH}/${escapeHtml(encodeURIComponent(token))}">` +
      `<label for="password">New password (at least 8 characters)</label>` +
      `<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>` +
      `<label for="confirm">New password again</label>` +
      `<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="8" required>` +
      `<button type="submit">Set the password</button></form>`,
  });
}

const spent = (reply: FastifyReply) =>
  sendPage(reply, {
    status: 410,
    title: 'Link expired',
    body:
      '<p class="error" role="alert">This password-reset link was used already or has expired.</p>' +
      `<p>Ask an operator for a new one, or <a href="${SIGNIN_PATH}?next=${encodeURIComponent(CONSOLE_PATH)}">sign in</a>.</p>`,
  });

export function passwordResetRoutes(people: PeopleService, baseUrl: string) {
  const cookie = sessionCookie(baseUrl);
  return async (app: FastifyInstance): Promise<void> => {
    acceptFormBodies(app);
    const config = { auth: 'none' } as const;
    const schema = { hide: true };
    const path = `${PASSWORD_RESET_PATH}/:token`;

    app.get(path, { config, schema }, async (request, reply) => {
      const parsed = params.safeParse(request.params);
      if (!parsed.success || !(await people.passwordResetValid(parsed.data.token))) return spent(reply);
      return renderReset(reply, parsed.data.token);
    });

    app.post(path, { config, schema, bodyLimit: 16_384 }, async (request, reply) => {
      if (fromForeignOrigin(request.headers, baseUrl))
        return errorPage(reply, 403, 'Not allowed', 'This form was sent from another site.');
      const parsed = params.safeParse(request.params);
      if (!parsed.success) return spent(reply);
      const { token } = parsed.data;
      const form = resetForm.safeParse(request.body);
      if (!form.success) return renderReset(reply, token, { status: 400, error: 'The form is incomplete.' });
      const { password, confirm } = form.data;
      if (password.length < 8)
        return renderReset(reply, token, { status: 400, error: 'The password needs at least 8 characters.' });
      if (password !== confirm)
        return renderReset(reply, token, { status: 400, error: 'The two passwords differ.' });
      try {
        const outcome = await people.resetPassword(token, password, request.ip);
        if (outcome.kind !== 'signed-in') return spent(reply);
        reply.header('set-cookie', cookie.set(outcome.token, people.sessionTtlSeconds));
        return reply.redirect(CONSOLE_PATH, 303);
      } catch (error) {
        if (error instanceof AppError && error.code === 'INVALID_SESSION') return spent(reply);
        throw error;
      }
    });
  };
}
