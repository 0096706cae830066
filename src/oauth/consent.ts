/**
 * Consent, shown on every authorization request: `GET /oauth/authorize/consent` names the client and
 * its redirect host, lists the scopes in plain words and lets the person pick one of their
 * workspaces; one form with "Allow" and "Deny" buttons posts to `POST /oauth/authorize/consent`
 * (a single-use code, RFC 6749 §4.1.2) or `POST /oauth/authorize/deny` (`access_denied`,
 * §4.1.2.1). Both answer 303 to the redirect URI with `state` and `iss` (RFC 9207). Protected by a
 * CSRF token bound to the session and the request (hidden input), an Origin check, and framing
 * refused by CSP and X-Frame-Options; a request is decided once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  errorPage,
  escapeHtml,
  fromForeignOrigin,
  type PeopleService,
  sendPage,
  sessionCookie,
} from '../people/index.ts';
import type { WebSession } from '../store/users.ts';
import { CONSENT_PATH, redirectBack, signInUrl } from './authorize.ts';
import { clientMetadata } from './clients.ts';
import type { OAuthService, PendingAuthorization } from './service.ts';
import { SCOPE_WORDS } from './settings.ts';

export const DENY_PATH = '/oauth/authorize/deny';
const field = z.string().max(512);
const decisionForm = z.object({ request: field, csrf: field.optional(), workspace: field.optional() });
const pageQuery = z.object({ request: field });

const csrfPurpose = (requestId: string) => `consent:${requestId}`;
const expired = (reply: FastifyReply) =>
  errorPage(
    reply,
    400,
    'Request expired',
    'This authorization request has expired or was already answered. Go back to the application and try again.',
  );

export function consentRoutes(oauth: OAuthService, people: PeopleService) {
  const { issuer } = oauth.settings;
  const cookie = sessionCookie(issuer);
  const config = { auth: 'none' } as const;
  const schema = { hide: true };

  async function page(
    reply: FastifyReply,
    session: WebSession,
    request: PendingAuthorization,
    clientName: string,
  ) {
    const workspaces = await people.workspacesOf(session.userId);
    const target = new URL(request.redirectUri);
    const usable = workspaces.filter((w) => !w.suspended);
    const options = workspaces
      .map(
        (w) =>
          `<option value="${escapeHtml(w.id)}"${w.id === usable[0]?.id ? ' selected' : ''}${w.suspended ? ' disabled' : ''}>` +
          `${escapeHtml(w.name)}${w.suspended ? ' (suspended)' : ''}</option>`,
      )
      .join('');
    const scopes = request.scopes.map(
      (s) => `<li>${escapeHtml(SCOPE_WORDS[s])} <span class="muted">(${s})</span></li>`,
    );
    return sendPage(reply, {
      title: 'Allow access?',
      formTargets: [target.origin],
      body:
        `<p><strong>${escapeHtml(clientName)}</strong> wants to use Platen as ` +
        `<strong>${escapeHtml(session.email)}</strong>. After you answer you go to <strong>${escapeHtml(target.host)}</strong>.</p>` +
        `<p>It asks to:</p><ul>${scopes.join('')}</ul>` +
        `<form method="post" action="${CONSENT_PATH}">` +
        `<input type="hidden" name="request" value="${escapeHtml(request.id)}">` +
        `<input type="hidden" name="csrf" value="${escapeHtml(people.csrfToken(session, csrfPurpose(request.id)))}">` +
        `<label for="workspace">Workspace</label><select id="workspace" name="workspace">${options}</select>` +
        (usable.length
          ? ''
          : '<p class="error" role="alert">You have no workspace this application could use.</p>') +
        `<button type="submit"${usable.length ? '' : ' disabled'}>Allow</button>` +
        `<button type="submit" formaction="${DENY_PATH}">Deny</button></form>`,
    });
  }

  async function decide(request: FastifyRequest, reply: FastifyReply, allow: boolean) {
    if (fromForeignOrigin(request.headers, issuer))
      return errorPage(reply, 403, 'Not allowed', 'This form was sent from another site.');
    const session = await people.session(cookie.read(request.headers));
    const form = decisionForm.safeParse(request.body);
    if (!session || !form.success)
      return errorPage(
        reply,
        403,
        'Not allowed',
        'Your session has ended or the form is incomplete. Start again from the application.',
      );
    const pending = await oauth.pendingRequest(form.data.request);
    if (!pending) return expired(reply);
    if (!people.checkCsrf(session, csrfPurpose(pending.request.id), form.data.csrf))
      return errorPage(reply, 403, 'Not allowed', 'This form has expired or was sent from another site.');
    const { request: authorization } = pending;
    let workspaceId: string | null = null;
    if (allow) {
      const workspaces = await people.workspacesOf(session.userId);
      workspaceId = workspaces.find((w) => w.id === form.data.workspace && !w.suspended)?.id ?? null;
      if (!workspaceId) return errorPage(reply, 400, 'Pick a workspace', 'Choose one of your workspaces.');
    }
    if (!(await oauth.takeRequest(authorization.id))) return expired(reply);
    const params: Record<string, string> = workspaceId
      ? { code: await oauth.issueCode(authorization, session.userId, workspaceId) }
      : { error: 'access_denied', error_description: 'The person denied the request.' };
    return reply.redirect(redirectBack(authorization.redirectUri, params, authorization.state, issuer), 303);
  }

  return (app: FastifyInstance): void => {
    app.get(CONSENT_PATH, { config, schema }, async (request, reply) => {
      const query = pageQuery.safeParse(request.query);
      if (!query.success) return expired(reply);
      const session = await people.session(cookie.read(request.headers));
      if (!session) return reply.redirect(signInUrl(query.data.request), 302);
      const pending = await oauth.pendingRequest(query.data.request);
      if (!pending) return expired(reply);
      const name = clientMetadata(pending.client).client_name ?? pending.client.id;
      return page(reply, session, pending.request, name);
    });
    const post = { config, schema, bodyLimit: 16_384 };
    app.post(CONSENT_PATH, post, (request, reply) => decide(request, reply, true));
    app.post(DENY_PATH, post, (request, reply) => decide(request, reply, false));
  };
}
