/**
 * The management plane over real HTTP, on each database:
 * - audit completeness: every sensitive action of an operator, in the console (cookie and CSRF
 *   header, on /admin/v1 and /console/api) and with the operator token, is in the audit log by
 *   who (email and user id, or the operator token), where (workspace, target) and from which
 *   address; the log's filters and paging; the credit ledger names who granted;
 * - people's lifecycle: disable (the console session and its studio token end at once), enable,
 *   promote, demote, memberships, delete, password-reset links, unlock, sign-out;
 * - the setup link (while no operator exists; a taken email leaves it usable) and the last enabled
 *   operator, who cannot be demoted, disabled or deleted;
 * - sign-in delays: per account and address, doubling, never a lock on the person elsewhere;
 * - suspension and the order of checks; confinement of members to their workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockoutPolicy } from '../src/people/lockout.ts';
import { backends } from './harness/backends.ts';
import { type ConsolePerson, consolePerson } from './harness/console.ts';
import {
  authorize,
  exchangeCode,
  oauthErrorOf,
  refresh,
  registerClient,
  tokensFor,
} from './harness/oauth-flow.ts';
import {
  ADMIN_TOKEN,
  admin,
  bearer,
  type HttpResult,
  http,
  keyFor,
  startTestServer,
  type TestServer,
} from './harness/server.ts';

const PASSWORD = 'correct horse battery';
const MAX_FAILURES = 3;

interface AuditActor {
  type: string;
  id: string | null;
  label: string;
}

interface AuditItem {
  id: string;
  at: string;
  action: string;
  actor: AuditActor;
  workspaceId: string | null;
  target: string | null;
  details: unknown;
  address: string | null;
}

/** Fails with the answer's body, so a wrong status says why. */
function expectStatus(res: HttpResult, status: number, what: string): HttpResult {
  expect(`${what}: ${res.status}`, res.bytes.toString().slice(0, 500)).toBe(`${what}: ${status}`);
  return res;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `the management plane on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      /** An operator signed in to the console. */
      let operator: ConsolePerson;

      beforeAll(async () => {
        server = await startTestServer(backend.name, {
          PLATEN_TRUST_PROXY: '127.0.0.1',
          PLATEN_SIGNIN_MAX_FAILURES_PER_ACCOUNT: String(MAX_FAILURES),
        });
        operator = await consolePerson(server.base, { operator: true });
      });
      afterAll(() => server?.close());

      const tokenHeaders = (address?: string) => ({
        ...bearer(ADMIN_TOKEN),
        ...(address ? { 'x-forwarded-for': address } : {}),
      });

      /** Signs in through the real form; `from`: the client address (X-Forwarded-For, a trusted proxy). */
      async function signIn(email: string, password: string, from?: string) {
        const response = await fetch(`${server.base}/oauth/signin`, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            origin: server.base,
            ...(from ? { 'x-forwarded-for': from } : {}),
          },
          body: new URLSearchParams({ email, password }).toString(),
        });
        const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        await response.arrayBuffer();
        return { status: response.status, retryAfter: response.headers.get('retry-after'), cookie };
      }

      const workspace = async (name: string, credits = 0): Promise<string> =>
        expectStatus(await admin(server.base, 'POST', '/workspaces', { name, credits }), 201, 'workspace')
          .json.id;

      const session = (person: { cookie: string }) =>
        http(server.base, 'GET', '/console/api/session', { headers: { cookie: person.cookie } });

      async function studioToken(person: ConsolePerson, workspaceId: string) {
        const res = await http(server.base, 'POST', `/console/api/workspaces/${workspaceId}/studio-session`, {
          headers: person.change(),
        });
        expectStatus(res, 201, 'studio session');
        const { token, embedId } = res.json as { token: string; embedId: string };
        return () => http(server.base, 'GET', `/v1/embed/${embedId}/templates`, { headers: bearer(token) });
      }

      async function auditLog(query: string): Promise<AuditItem[]> {
        const res = await admin(server.base, 'GET', `/audit-log?limit=100&${query}`);
        expectStatus(res, 200, `audit log ${query}`);
        return res.json.items;
      }

      describe('audit completeness', () => {
        interface Caller {
          /** Headers of every call. */
          headers: Record<string, string>;
          /** Whether the workspace's keys, embeds and webhooks go through the console's own routes. */
          console: boolean;
          actor: AuditActor;
          address: string;
          ledgerActor: string;
        }

        /** Every sensitive action once; what the log should then say of each. */
        async function manageEverything(caller: Caller) {
          const call = async (method: string, path: string, status: number, body?: unknown) =>
            expectStatus(
              await http(server.base, method, path, { body, headers: caller.headers }),
              status,
              `${method} ${path}`,
            ).json;
          const expected: { action: string; target: string; workspaceId: string | null }[] = [];
          const did = (action: string, target: string, workspaceId: string | null) =>
            expected.push({ action, target, workspaceId });

          const ws = (await call('POST', '/admin/v1/workspaces', 201, { name: 'audited', credits: 5 })).id;
          did('workspace.created', ws, ws);
          await call('PATCH', `/admin/v1/workspaces/${ws}`, 200, { name: 'audited, renamed' });
          did('workspace.renamed', ws, ws);
          await call('PATCH', `/admin/v1/workspaces/${ws}`, 200, { suspended: true });
          did('workspace.suspended', ws, ws);
          await call('PATCH', `/admin/v1/workspaces/${ws}`, 200, { suspended: false });
          did('workspace.reinstated', ws, ws);
          await call('POST', `/admin/v1/workspaces/${ws}/credits`, 200, { amount: 7, reason: 'top-up' });
          did('credits.granted', ws, ws);
          await call('POST', `/admin/v1/workspaces/${ws}/credits`, 200, { amount: -2 });
          did('credits.withdrawn', ws, ws);
          const member = await call('POST', '/admin/v1/users', 201, {
            email: `member-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
            password: PASSWORD,
            workspaceIds: [ws],
          });
          did('user.created', member.id, null);

          const secret = await call('POST', `/admin/v1/workspaces/${ws}/url-signing-secrets`, 201, {});
          did('url_secret.created', secret.id, ws);
          await call('POST', `/admin/v1/url-signing-secrets/${secret.id}/rotate`, 200);
          did('url_secret.rotated', secret.id, ws);
          await call('PATCH', `/admin/v1/url-signing-secrets/${secret.id}`, 200, { renderCap: 5 });
          did('url_secret.updated', secret.id, ws);
          await call('DELETE', `/admin/v1/url-signing-secrets/${secret.id}`, 204);
          did('url_secret.revoked', secret.id, ws);

          const inWs = caller.console ? `/console/api/workspaces/${ws}` : `/admin/v1/workspaces/${ws}`;
          const one = (kind: string, id: string) =>
            caller.console ? `/console/api/workspaces/${ws}/${kind}/${id}` : `/admin/v1/${kind}/${id}`;

          const key = await call('POST', `${inWs}/api-keys`, 201, {
            name: 'audited',
            scopes: ['template:read'],
          });
          did('api_key.created', key.id, ws);
          await call('DELETE', one('api-keys', key.id), 204);
          did('api_key.revoked', key.id, ws);

          const embed = await call('POST', `${inWs}/embeds`, 201, { mintRequiresApiKey: true });
          did('embed.created', embed.id, ws);
          const updated = await call('PATCH', one('embeds', embed.id), 200, { mintRequiresApiKey: false });
          expect(updated.mintRequiresApiKey).toBe(false);
          did('embed.updated', embed.id, ws);

          const hook = await call('POST', `${inWs}/webhooks`, 201, {
            url: 'http://127.0.0.1:9/hook',
            events: ['template.create'],
          });
          did('webhook.created', hook.id, ws);
          await call('PATCH', one('webhooks', hook.id), 200, { url: 'http://127.0.0.1:9/moved' });
          did('webhook.updated', hook.id, ws);
          await call('POST', `${one('webhooks', hook.id)}/rotate-secret`, 200);
          did('webhook.secret_rotated', hook.id, ws);
          await call('DELETE', one('webhooks', hook.id), 204);
          did('webhook.deleted', hook.id, ws);
          return { ws, expected, embedId: embed.id as string, hookId: hook.id as string };
        }

        async function checkLog(caller: Caller, done: Awaited<ReturnType<typeof manageEverything>>) {
          const { ws, expected } = done;
          const inWorkspace = await auditLog(`workspaceId=${ws}`);
          const everywhere = [...inWorkspace, ...(await auditLog('action=user.created'))];
          for (const { action, target, workspaceId } of expected) {
            const found = everywhere.filter((e) => e.action === action && e.target === target);
            expect(found, `${action} ${target}`).toHaveLength(1);
            expect(found[0], action).toMatchObject({
              actor: caller.actor,
              workspaceId,
              address: caller.address,
            });
          }
          // The filter by workspace: exactly what was done there, nothing else.
          expect(inWorkspace.every((e) => e.workspaceId === ws)).toBe(true);
          expect(inWorkspace.map((e) => e.action).sort()).toEqual(
            expected
              .filter((e) => e.workspaceId === ws)
              .map((e) => e.action)
              .sort(),
          );
          // Newest first.
          const times = inWorkspace.map((e) => e.at);
          expect(times).toEqual([...times].sort().reverse());
          // What changed, never a secret.
          const embedUpdate = inWorkspace.find((e) => e.action === 'embed.updated');
          expect(embedUpdate?.details).toEqual({
            changes: { mintRequiresApiKey: { from: true, to: false } },
          });
          const hookUpdate = inWorkspace.find((e) => e.action === 'webhook.updated');
          // The URLs by origin and a fingerprint: a receiver's credential in the path stays out.
          const { url: changedUrl } = (hookUpdate?.details ?? { url: { from: '', to: '' } }) as {
            url: { from: string; to: string };
          };
          expect(changedUrl.from).toMatch(/^http:\/\/127\.0\.0\.1:9\/…#[0-9a-f]{12}$/);
          expect(changedUrl.to).toMatch(/^http:\/\/127\.0\.0\.1:9\/…#[0-9a-f]{12}$/);
          expect(changedUrl.from).not.toBe(changedUrl.to);
          expect(JSON.stringify(inWorkspace)).not.toMatch(/\/hook|\/moved/);
          expect(JSON.stringify(inWorkspace)).not.toMatch(/whsec_|plt_[0-9A-Za-z]{20}/);

          // The filter by action, with the workspace.
          const grants = await auditLog(`workspaceId=${ws}&action=credits.granted`);
          expect(grants.map((e) => [e.action, e.target])).toEqual([['credits.granted', ws]]);
          expect(grants[0]?.details).toMatchObject({ amount: 7, reason: 'top-up', balanceAfter: 12 });

          // Paging: pages of 4 give the same entries in the same order, then no cursor.
          const paged: AuditItem[] = [];
          let cursor: string | null = null;
          for (let page = 0; page < 20; page++) {
            const res = await admin(
              server.base,
              'GET',
              `/audit-log?limit=4&workspaceId=${ws}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
            );
            expectStatus(res, 200, 'audit page');
            expect(res.json.items.length).toBeLessThanOrEqual(4);
            paged.push(...res.json.items);
            cursor = res.json.nextCursor;
            if (cursor === null) break;
          }
          expect(cursor).toBeNull();
          expect(paged.map((e) => e.id)).toEqual(inWorkspace.map((e) => e.id));

          // The ledger names who moved credits: the initial grant, the grant and the withdrawal.
          const ledger = expectStatus(
            await admin(server.base, 'GET', `/workspaces/${ws}/ledger`),
            200,
            'ledger',
          ).json.items as { delta: number; actor: string; reason: string }[];
          expect(ledger.map((e) => [e.delta, e.actor])).toEqual([
            [5, caller.ledgerActor],
            [7, caller.ledgerActor],
            [-2, caller.ledgerActor],
          ]);
          expect(ledger[1]?.reason).toBe('top-up');
        }

        it('records every action of an operator in the console, by email and user id, and filters by person', async () => {
          const caller: Caller = {
            headers: operator.change(),
            console: true,
            actor: { type: 'person', id: operator.userId, label: operator.email },
            address: '127.0.0.1',
            ledgerActor: `person:${operator.email} (${operator.userId})`,
          };
          const done = await manageEverything(caller);
          await checkLog(caller, done);
          // The filter by person: this operator did exactly these, in every workspace or none.
          const mine = await auditLog(`userId=${operator.userId}`);
          expect(mine.every((e) => e.actor.id === operator.userId && e.actor.type === 'person')).toBe(true);
          expect(mine.map((e) => `${e.action} ${e.target}`).sort()).toEqual(
            done.expected.map((e) => `${e.action} ${e.target}`).sort(),
          );
          expect(await auditLog('userId=usr_nobodynobodynobody00')).toEqual([]);
        });

        it('records every action of the operator token, from the forwarded client address', async () => {
          const caller: Caller = {
            headers: tokenHeaders('203.0.113.9'),
            console: false,
            actor: { type: 'operator_token', id: null, label: 'operator token' },
            address: '203.0.113.9',
            ledgerActor: 'operator-token',
          };
          await checkLog(caller, await manageEverything(caller));
        });

        it('refuses a filter it does not know and a cursor it did not give', async () => {
          for (const query of ['action=made.up', 'cursor=nonsense', 'limit=0', 'who=me']) {
            const res = await admin(server.base, 'GET', `/audit-log?${query}`);
            expect([query, res.status, res.json.error.code]).toEqual([query, 400, 'VALIDATION_FAILED']);
          }
        });
      });

      describe("people's lifecycle", () => {
        let ws: string;
        let other: string;
        const op = (method: string, path: string, body?: unknown) =>
          http(server.base, method, `/admin/v1${path}`, { body, headers: operator.change() });

        beforeAll(async () => {
          ws = await workspace('people');
          other = await workspace('people, other');
        });

        it('disabling a member ends their console session and their studio token at once; enabling lets them sign in again', async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const studio = await studioToken(member, ws);
          expect((await studio()).status).toBe(200);
          expect((await session(member)).status).toBe(200);

          const disabled = await op('PATCH', `/users/${member.userId}`, { disabled: true });
          expectStatus(disabled, 200, 'disable');
          expect(disabled.json).toMatchObject({ disabled: true });
          const refused = await session(member);
          expect([refused.status, refused.json.error.code]).toEqual([401, 'UNAUTHORIZED']);
          const gone = await studio();
          expect([gone.status, gone.json.error.code]).toEqual([401, 'INVALID_SESSION']);
          const keys = await http(server.base, 'GET', `/console/api/workspaces/${ws}/api-keys`, {
            headers: member.change(),
          });
          expect(keys.status).toBe(401);
          // Refused at sign-in as a wrong password is.
          expect((await signIn(member.email, member.password)).status).toBe(400);

          expectStatus(await op('PATCH', `/users/${member.userId}`, { disabled: false }), 200, 'enable');
          const again = await signIn(member.email, member.password);
          expect(again.status).toBe(303);
          expect((await session(again)).json.user).toMatchObject({ id: member.userId, operator: false });
          // The old session stays ended.
          expect((await session(member)).status).toBe(401);

          const log = await auditLog('action=user.disabled');
          expect(log.find((e) => e.target === member.userId)).toMatchObject({
            actor: { type: 'person', id: operator.userId, label: operator.email },
            details: { email: member.email },
          });
          expect((await auditLog('action=user.enabled')).map((e) => e.target)).toContain(member.userId);
        });

        it("disabling a person ends their OAuth grants (an MCP client's access and refresh tokens) too", async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const { flow, tokens } = await tokensFor(server.base, {
            email: member.email,
            password: member.password,
          });
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).not.toBeNull();
          expectStatus(await op('PATCH', `/users/${member.userId}`, { disabled: true }), 200, 'disable');
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).toBeNull();
          expect(await oauthErrorOf(refresh(flow, tokens.refresh_token ?? ''))).toBe('invalid_grant');
          // Enabled again, the person consents anew; the old grant stays ended.
          expectStatus(await op('PATCH', `/users/${member.userId}`, { disabled: false }), 200, 'enable');
          expect(await server.services.oauth.verifyAccessToken(tokens.access_token)).toBeNull();
          expect(await oauthErrorOf(refresh(flow, tokens.refresh_token ?? ''))).toBe('invalid_grant');
        });

        it('a code issued before the person was disabled buys no tokens', async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const flow = await registerClient(server.base);
          const { params, authorization } = await authorize(flow, {
            email: member.email,
            password: member.password,
          });
          expectStatus(await op('PATCH', `/users/${member.userId}`, { disabled: true }), 200, 'disable');
          expect(await oauthErrorOf(exchangeCode(flow, params, authorization.verifier))).toBe(
            'invalid_grant',
          );
        });

        it('promotes a member to operator and demotes them again (each change ends their sessions)', async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const users = () => http(server.base, 'GET', '/admin/v1/users', { headers: member.change() });
          expect((await users()).status).toBe(401);

          expectStatus(await op('PATCH', `/users/${member.userId}`, { operator: true }), 200, 'promote');
          // Every change signs the person out; signed in again, they hold the new rights.
          expect((await session(member)).status).toBe(401);
          const promoted = await signIn(member.email, member.password);
          const promotedSession = await session(promoted);
          expect(promotedSession.json.user).toMatchObject({ operator: true });
          const asOperator = await http(server.base, 'GET', '/admin/v1/users', {
            headers: { cookie: promoted.cookie, 'x-platen-csrf': promotedSession.json.csrfToken as string },
          });
          expect(asOperator.status).toBe(200);

          const demoted = await op('PATCH', `/users/${member.userId}`, { operator: false });
          expectStatus(demoted, 200, 'demote');
          expect(demoted.json).toMatchObject({ operator: false, workspaceIds: [ws] });
          expect((await session(member)).status).toBe(401);
          const back = await signIn(member.email, member.password);
          const csrf = (await session(back)).json.csrfToken as string;
          const asMember = await http(server.base, 'GET', '/admin/v1/users', {
            headers: { cookie: back.cookie, 'x-platen-csrf': csrf },
          });
          expect(asMember.status).toBe(401);
          const actions = (await auditLog('')).filter((e) => e.target === member.userId).map((e) => e.action);
          expect(actions).toEqual(expect.arrayContaining(['user.promoted', 'user.demoted']));
        });

        it('changes memberships: the session ends and the person reaches the new workspace only', async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const changed = await op('PATCH', `/users/${member.userId}`, { workspaceIds: [other] });
          expectStatus(changed, 200, 'memberships');
          expect(changed.json.workspaceIds).toEqual([other]);
          expect((await session(member)).status).toBe(401);
          const back = await signIn(member.email, member.password);
          const reach = async (id: string) =>
            (
              await http(server.base, 'GET', `/console/api/workspaces/${id}`, {
                headers: { cookie: back.cookie },
              })
            ).status;
          expect([await reach(ws), await reach(other)]).toEqual([404, 200]);
          const entry = (await auditLog('action=user.memberships_changed')).find(
            (e) => e.target === member.userId,
          );
          expect(entry?.details).toMatchObject({ from: [ws], to: [other] });
          // A member needs a workspace; an unknown one is not found.
          expect((await op('PATCH', `/users/${member.userId}`, { workspaceIds: [] })).status).toBe(400);
          expect(
            (await op('PATCH', `/users/${member.userId}`, { workspaceIds: ['ws_0000000000000000000000'] }))
              .status,
          ).toBe(404);
        });

        it('deletes a person: signed out, refused at sign-in, gone from the list, kept in the audit trail', async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const studio = await studioToken(member, ws);
          expectStatus(await op('DELETE', `/users/${member.userId}`), 204, 'delete');
          expect((await session(member)).status).toBe(401);
          expect((await studio()).status).toBe(401);
          expect((await signIn(member.email, member.password)).status).toBe(400);
          expect((await op('GET', `/users/${member.userId}`)).status).toBe(404);
          expect((await op('GET', '/users')).json.items.map((u: { id: string }) => u.id)).not.toContain(
            member.userId,
          );
          expect((await op('DELETE', `/users/${member.userId}`)).status).toBe(404);
          const entry = (await auditLog('action=user.deleted')).find((e) => e.target === member.userId);
          expect(entry).toMatchObject({ details: { email: member.email }, actor: { id: operator.userId } });
        });

        it('a newer password-reset link replaces the earlier one', async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const first = expectStatus(await op('POST', `/users/${member.userId}/password-reset`), 201, 'first')
            .json.url as string;
          expect((await fetch(first)).status).toBe(200);
          const second = expectStatus(
            await op('POST', `/users/${member.userId}/password-reset`),
            201,
            'second',
          ).json.url as string;
          expect((await fetch(first)).status).toBe(410);
          expect((await fetch(second)).status).toBe(200);
        });

        it('issues a password-reset link that works once: sets the password, signs in, the old one is refused', async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const issued = await op('POST', `/users/${member.userId}/password-reset`);
          expectStatus(issued, 201, 'reset link');
          const { url, expiresAt } = issued.json as { url: string; expiresAt: string };
          expect(url).toMatch(new RegExp(`^${server.base}/console/reset/[A-Za-z0-9_-]{20,}$`));
          expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
          // Issuing it signs the person out everywhere.
          expect((await session(member)).status).toBe(401);

          const page = await fetch(url);
          expect(page.status).toBe(200);
          expect(await page.text()).toContain('name="password"');
          const post = (password: string, confirm = password) =>
            fetch(url, {
              method: 'POST',
              redirect: 'manual',
              headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.base },
              body: new URLSearchParams({ password, confirm }).toString(),
            });
          // A bad form does not spend the link.
          expect((await post('new password 1', 'other password')).status).toBe(400);
          expect((await fetch(url)).status).toBe(200);

          // Two at once: the link works for one of them only.
          const [one, two] = await Promise.all([post('the new password'), post('a rival password')]);
          expect([one.status, two.status].sort()).toEqual([303, 410]);
          const [reset, newPassword, rival] =
            one.status === 303
              ? [one, 'the new password', 'a rival password']
              : [two, 'a rival password', 'the new password'];
          expect(reset.headers.get('location')).toBe('/console/');
          const cookie = (reset.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
          expect((await session({ cookie })).json.user).toMatchObject({ id: member.userId });

          expect((await fetch(url)).status).toBe(410);
          expect((await post('yet another password')).status).toBe(410);
          expect((await signIn(member.email, member.password)).status).toBe(400);
          expect((await signIn(member.email, rival)).status).toBe(400);
          expect((await signIn(member.email, newPassword)).status).toBe(303);
          expect(
            (await auditLog('action=user.password_reset')).find((e) => e.target === member.userId),
          ).toMatchObject({ actor: { type: 'person', id: member.userId, label: member.email } });
        });

        it('unlock forgets the failures that slow an account down, from every address', async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          // Enough failures from five addresses that the account is slowed down everywhere.
          for (let address = 1; address <= 5; address++)
            for (let i = 0; i < MAX_FAILURES; i++)
              expect((await signIn(member.email, 'wrong guess', `198.18.0.${address}`)).status).toBe(400);
          const slowed = await signIn(member.email, member.password, '198.18.0.99');
          expect(slowed.status).toBe(429);
          expect((await op('GET', `/users/${member.userId}`)).json.lockedUntil).toEqual(expect.any(String));
          expect((await signIn(member.email, member.password, '198.18.0.1')).status).toBe(429);

          expectStatus(await op('POST', `/users/${member.userId}/unlock`), 204, 'unlock');
          expect((await op('GET', `/users/${member.userId}`)).json.lockedUntil).toBeNull();
          expect((await signIn(member.email, member.password, '198.18.0.99')).status).toBe(303);
          expect((await signIn(member.email, member.password, '198.18.0.1')).status).toBe(303);
          expect((await auditLog('action=user.unlocked')).map((e) => e.target)).toContain(member.userId);
        });

        it('signing out ends the console session and the studio token opened from it', async () => {
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const studio = await studioToken(member, ws);
          const other = await signIn(member.email, member.password);
          expect((await studio()).status).toBe(200);
          const out = await http(server.base, 'POST', '/console/api/sign-out', { headers: member.change() });
          expect(out.status).toBe(204);
          expect((await session(member)).status).toBe(401);
          expect((await studio()).status).toBe(401);
          // Only that session: the person's other one lives on.
          expect((await session(other)).status).toBe(200);
        });
      });

      describe('sign-in delays', () => {
        it('slows the address that guesses, 1 s then 2 s, not the operator signing in from another address', async () => {
          const person = await consolePerson(server.base, { operator: true });
          const guesser = '192.0.2.66';
          for (let i = 0; i < MAX_FAILURES; i++)
            expect((await signIn(person.email, 'guess', guesser)).status).toBe(400);
          const first = await signIn(person.email, person.password, guesser);
          expect([first.status, first.retryAfter]).toEqual([429, '1']);
          // The operator, elsewhere, is not slowed at all.
          expect((await signIn(person.email, person.password, '192.0.2.10')).status).toBe(303);
          await sleep(1_100);
          expect((await signIn(person.email, 'guess', guesser)).status).toBe(400);
          const second = await signIn(person.email, 'guess', guesser);
          expect([second.status, second.retryAfter]).toEqual([429, '2']);
          expect((await signIn(person.email, person.password, '192.0.2.10')).status).toBe(303);
          // Without the forwarded address (the proxy itself) it is yet another address.
          expect((await signIn(person.email, person.password)).status).toBe(303);
          const locked = (await auditLog('action=signin.locked')).filter((e) => e.target === person.userId);
          expect(locked.length).toBeGreaterThan(0);
          expect(locked.every((e) => e.address === guesser)).toBe(true);
        });

        it('counts parallel guesses: a burst past the threshold is refused, not all checked', async () => {
          const person = await consolePerson(server.base, { operator: true });
          const burst = await Promise.all(
            Array.from({ length: 30 }, () => signIn(person.email, 'guess', '192.0.2.77')),
          );
          const checked = burst.filter((r) => r.status === 400).length;
          expect(checked).toBeLessThanOrEqual(MAX_FAILURES);
          expect(burst.filter((r) => r.status === 429).length).toBe(30 - checked);
        });

        it('never slows the person on a browser where they signed in before (the device cookie)', async () => {
          const person = await consolePerson(server.base, { operator: true });
          const first = await fetch(`${server.base}/oauth/signin`, {
            method: 'POST',
            redirect: 'manual',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              origin: server.base,
              'x-forwarded-for': '192.0.2.90',
            },
            body: new URLSearchParams({ email: person.email, password: person.password }).toString(),
          });
          const device = first.headers
            .getSetCookie()
            .find((line) => line.startsWith('platen_device='))
            ?.split(';')[0];
          expect(device).toMatch(/^platen_device=[A-Za-z0-9_-]{40,}$/);
          // Strangers from many addresses push the account-wide counter past its threshold.
          for (let i = 0; i < MAX_FAILURES * 5; i++)
            await signIn(person.email, 'guess', `198.51.100.${i % 250}`);
          const attempt = (cookie?: string) =>
            fetch(`${server.base}/oauth/signin`, {
              method: 'POST',
              redirect: 'manual',
              headers: {
                'content-type': 'application/x-www-form-urlencoded',
                origin: server.base,
                'x-forwarded-for': '203.0.113.5',
                ...(cookie ? { cookie } : {}),
              },
              body: new URLSearchParams({ email: person.email, password: person.password }).toString(),
            });
          // A new browser waits (at most a minute); the person's own browser does not.
          expect((await attempt()).status).toBe(429);
          expect((await attempt(device)).status).toBe(303);
          expect((await attempt('platen_device=forged')).status).toBe(429);
        });

        it('caps the delays that reach the person from anywhere at a minute', () => {
          const policy = lockoutPolicy({
            maxFailuresPerAccount: 10,
            maxFailuresPerAddress: 50,
            lockoutWindowSeconds: 900,
          });
          const [perAddress, account, address] = policy.limits('op@example.com', '192.0.2.1', false);
          expect([perAddress.kind, account?.kind, address?.kind]).toEqual([
            'account-address',
            'account',
            'address',
          ]);
          expect([account?.capSeconds, address?.capSeconds]).toEqual([60, 60]);
          expect(perAddress.subject).not.toBe(policy.limits('op@example.com', '192.0.2.2', false)[0].subject);
        });
      });

      describe('suspension', () => {
        it('lets members look but not change, operators manage, and refuses the API keys, suspension first', async () => {
          const ws = await workspace('suspended', 10);
          const elsewhere = await workspace('elsewhere', 10);
          const member = await consolePerson(server.base, { workspaceIds: [ws] });
          const key = await keyFor(server.base, ws, ['template:read', 'template:write']);
          const narrow = await keyFor(server.base, ws, ['asset:read']);
          const otherKey = await keyFor(server.base, elsewhere, ['template:read']);
          const templates = (k: string, headers: Record<string, string> = {}) =>
            http(server.base, 'GET', '/v1/templates', { headers: { ...bearer(k), ...headers } });
          const code = (res: HttpResult) => [res.status, res.json?.error?.code];

          expect(code(await templates(narrow.key))).toEqual([403, 'INSUFFICIENT_SCOPE']);
          expect(code(await templates(otherKey.key, { 'x-workspace-id': ws }))).toEqual([
            403,
            'WORKSPACE_MISMATCH',
          ]);
          expect((await templates(key.key)).status).toBe(200);

          expectStatus(
            await admin(server.base, 'PATCH', `/workspaces/${ws}`, { suspended: true }),
            200,
            'suspend',
          );
          const inWs = `/console/api/workspaces/${ws}`;
          for (const list of ['', '/api-keys', '/embeds', '/webhooks'])
            expect([
              list,
              (await http(server.base, 'GET', `${inWs}${list}`, { headers: member.change() })).status,
            ]).toEqual([list, 200]);
          const memberKey = await http(server.base, 'POST', `${inWs}/api-keys`, {
            body: { scopes: ['template:read'] },
            headers: member.change(),
          });
          expect(code(memberKey)).toEqual([403, 'SUBSCRIPTION_SUSPENDED']);
          const memberEmbed = await http(server.base, 'POST', `${inWs}/embeds`, {
            body: {},
            headers: member.change(),
          });
          expect(code(memberEmbed)).toEqual([403, 'SUBSCRIPTION_SUSPENDED']);
          const operatorKey = await http(server.base, 'POST', `${inWs}/api-keys`, {
            body: { scopes: ['template:read'] },
            headers: operator.change(),
          });
          expect(operatorKey.status).toBe(201);
          expect(code(await templates(operatorKey.json.key))).toEqual([403, 'SUBSCRIPTION_SUSPENDED']);

          expect(code(await templates(key.key))).toEqual([403, 'SUBSCRIPTION_SUSPENDED']);
          // Suspension before the named workspace and before the scope.
          expect(code(await templates(key.key, { 'x-workspace-id': elsewhere }))).toEqual([
            403,
            'SUBSCRIPTION_SUSPENDED',
          ]);
          expect(code(await templates(narrow.key))).toEqual([403, 'SUBSCRIPTION_SUSPENDED']);
          // Another workspace's key is not touched by it, and still may not name this one.
          expect((await templates(otherKey.key)).status).toBe(200);
          expect(code(await templates(otherKey.key, { 'x-workspace-id': ws }))).toEqual([
            403,
            'WORKSPACE_MISMATCH',
          ]);

          expectStatus(
            await admin(server.base, 'PATCH', `/workspaces/${ws}`, { suspended: false }),
            200,
            'reinstate',
          );
          expect((await templates(key.key)).status).toBe(200);
          expect(code(await templates(narrow.key))).toEqual([403, 'INSUFFICIENT_SCOPE']);
          expect(
            (await http(server.base, 'POST', `${inWs}/embeds`, { body: {}, headers: member.change() }))
              .status,
          ).toBe(201);
        });
      });

      describe('confinement', () => {
        it("answers 404 for another workspace's webhook, embed or key on a member's routes, and 401 on operator routes", async () => {
          const a = await workspace('confined a');
          const b = await workspace('confined b');
          const memberA = await consolePerson(server.base, { workspaceIds: [a] });
          const hook = await admin(server.base, 'POST', `/workspaces/${b}/webhooks`, {
            url: 'http://127.0.0.1:9/hook',
            events: ['template.create'],
          });
          const embed = await admin(server.base, 'POST', `/workspaces/${b}/embeds`, {});
          const key = await keyFor(server.base, b, ['template:read']);
          const inA = `/console/api/workspaces/${a}`;
          const attempts: [string, string, unknown?][] = [
            ['GET', `/webhooks/${hook.json.id}/deliveries`],
            ['PATCH', `/webhooks/${hook.json.id}`, { url: 'http://127.0.0.1:9/stolen' }],
            ['POST', `/webhooks/${hook.json.id}/rotate-secret`],
            ['POST', `/webhooks/${hook.json.id}/messages/msg_x/redeliver`],
            ['DELETE', `/webhooks/${hook.json.id}`],
            ['PATCH', `/embeds/${embed.json.id}`, { mintRequiresApiKey: false }],
            ['DELETE', `/embeds/${embed.json.id}`],
            ['DELETE', `/api-keys/${key.id}`],
          ];
          for (const [person, label] of [
            [memberA, 'member'],
            // An operator in one workspace's console screens is confined to it as well.
            [operator, 'operator'],
          ] as const)
            for (const [method, path, body] of attempts) {
              const res = await http(server.base, method, `${inA}${path}`, {
                body,
                headers: person.change(),
              });
              expect([label, method, path, res.status, res.json?.error?.code]).toEqual([
                label,
                method,
                path,
                404,
                'NOT_FOUND',
              ]);
            }
          // B's things are untouched.
          expect((await admin(server.base, 'GET', `/webhooks/${hook.json.id}`)).json.url).toBe(
            'http://127.0.0.1:9/hook',
          );
          expect((await admin(server.base, 'GET', `/embeds/${embed.json.id}`)).status).toBe(200);
          expect((await http(server.base, 'GET', '/v1/templates', { headers: bearer(key.key) })).status).toBe(
            200,
          );
          // B's workspace itself, in the path, is not found for a member of A.
          for (const path of ['', '/webhooks', '/embeds', '/api-keys'])
            expect(
              (
                await http(server.base, 'GET', `/console/api/workspaces/${b}${path}`, {
                  headers: memberA.change(),
                })
              ).status,
            ).toBe(404);

          for (const [method, path, body] of [
            ['GET', '/users'],
            ['GET', '/audit-log'],
            ['GET', '/workspaces'],
            ['POST', '/workspaces', { name: 'mine now' }],
            ['PATCH', `/workspaces/${a}`, { suspended: false }],
            ['POST', `/workspaces/${a}/credits`, { amount: 1000 }],
            ['GET', `/webhooks/${hook.json.id}`],
            ['POST', '/setup-link'],
          ] as [string, string, unknown?][]) {
            const res = await http(server.base, method, `/admin/v1${path}`, {
              body,
              headers: memberA.change(),
            });
            expect([method, path, res.status]).toEqual([method, path, 401]);
          }
          expect((await admin(server.base, 'GET', `/workspaces/${a}`)).json.creditBalance).toBe(0);
        });
      });

      describe('setup and the last operator', () => {
        let fresh: TestServer;
        beforeAll(async () => {
          fresh = await startTestServer(backend.name);
        });
        afterAll(() => fresh?.close());

        const setup = (token: string, email: string) =>
          fetch(`${fresh.base}/console/setup`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded', origin: fresh.base },
            body: new URLSearchParams({ token, email, password: PASSWORD, confirm: PASSWORD }).toString(),
          });

        it('issues a setup link while no operator exists; a taken email shows the form again and leaves it usable', async () => {
          const ws = (await admin(fresh.base, 'POST', '/workspaces', { name: 'w' })).json.id;
          // A member is not an operator: the link may still be issued.
          const taken = await admin(fresh.base, 'POST', '/users', {
            email: 'taken@example.com',
            password: PASSWORD,
            workspaceIds: [ws],
          });
          expect(taken.status).toBe(201);
          const earlier = await admin(fresh.base, 'POST', '/setup-link');
          expectStatus(earlier, 201, 'earlier setup link');
          const issued = await admin(fresh.base, 'POST', '/setup-link');
          expectStatus(issued, 201, 'setup link');
          // Only the newest link works: an earlier copy cannot make a second operator.
          expect((await fetch(earlier.json.url as string)).status).toBe(410);
          const { url, expiresAt } = issued.json as { url: string; expiresAt: string };
          expect(url).toMatch(new RegExp(`^${fresh.base}/console/setup\\?token=[A-Za-z0-9_-]{20,}$`));
          expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
          const token = new URL(url).searchParams.get('token') ?? '';

          const refused = await setup(token, 'Taken@Example.com');
          expect(refused.status).toBe(400);
          expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
          const html = await refused.text();
          expect(html).toMatch(/role="alert">[^<]*exists already/);
          expect(html).toContain(`value="${token}"`);
          expect((await fetch(url)).status).toBe(200);

          const created = await setup(token, 'first-op@example.com');
          expect([created.status, created.headers.get('location')]).toEqual([303, '/console/']);
          expect((await fetch(url)).status).toBe(410);
          const users = (await admin(fresh.base, 'GET', '/users')).json.items as {
            email: string;
            operator: boolean;
          }[];
          expect(users.map((u) => [u.email, u.operator]).sort()).toEqual([
            ['first-op@example.com', true],
            ['taken@example.com', false],
          ]);
          const again = await admin(fresh.base, 'POST', '/setup-link');
          expect([again.status, again.json.error.code]).toEqual([409, 'CONFLICT']);
          const log = (await admin(fresh.base, 'GET', '/audit-log?action=setup_link.issued')).json.items;
          expect(log).toHaveLength(2);
          for (const entry of log)
            expect(entry).toMatchObject({
              actor: { type: 'operator_token', id: null, label: 'operator token' },
            });
        });

        it('never demotes, disables or deletes the last enabled operator (409)', async () => {
          const users = (await admin(fresh.base, 'GET', '/users')).json.items as {
            id: string;
            operator: boolean;
          }[];
          const only = users.find((u) => u.operator)?.id ?? '';
          const ws = (await admin(fresh.base, 'GET', '/workspaces')).json.items[0].id as string;
          // A demotion that is otherwise valid (a member needs a workspace: 400 without one).
          const refusals = async () => [
            (await admin(fresh.base, 'PATCH', `/users/${only}`, { operator: false, workspaceIds: [ws] }))
              .status,
            (await admin(fresh.base, 'PATCH', `/users/${only}`, { disabled: true })).status,
            (await admin(fresh.base, 'DELETE', `/users/${only}`)).status,
          ];
          expect(await refusals()).toEqual([409, 409, 409]);
          // A disabled operator does not count.
          const second = await admin(fresh.base, 'POST', '/users', {
            email: 'second-op@example.com',
            password: PASSWORD,
            workspaceIds: [],
            operator: true,
          });
          expect(second.status).toBe(201);
          expect(
            (await admin(fresh.base, 'PATCH', `/users/${second.json.id}`, { disabled: true })).status,
          ).toBe(200);
          expect(await refusals()).toEqual([409, 409, 409]);
          const still = (await admin(fresh.base, 'GET', `/users/${only}`)).json;
          expect(still).toMatchObject({ operator: true, disabled: false });
          // With another enabled operator, the first may go.
          expect(
            (await admin(fresh.base, 'PATCH', `/users/${second.json.id}`, { disabled: false })).status,
          ).toBe(200);
          expect(
            (await admin(fresh.base, 'PATCH', `/users/${only}`, { operator: false, workspaceIds: [] }))
              .status,
          ).toBe(400);
          expect((await admin(fresh.base, 'DELETE', `/users/${only}`)).status).toBe(204);
          expect((await admin(fresh.base, 'DELETE', `/users/${second.json.id}`)).status).toBe(409);
          const setupLink = await admin(fresh.base, 'POST', '/setup-link');
          expect(setupLink.status).toBe(409);
        });

        it('lets only one of two operators disabled at the same moment go: one stays enabled', async () => {
          const enabledOperators = async () =>
            (
              (await admin(fresh.base, 'GET', '/users')).json.items as {
                operator: boolean;
                disabled: boolean;
              }[]
            ).filter((u) => u.operator && !u.disabled).length;
          const third = await admin(fresh.base, 'POST', '/users', {
            email: 'third-op@example.com',
            password: PASSWORD,
            workspaceIds: [],
            operator: true,
          });
          expect(third.status).toBe(201);
          const ids = (
            (await admin(fresh.base, 'GET', '/users')).json.items as { id: string; operator: boolean }[]
          )
            .filter((u) => u.operator)
            .map((u) => u.id);
          expect(ids).toHaveLength(2);
          expect(await enabledOperators()).toBe(2);
          for (let round = 0; round < 8; round++) {
            // Both disabled at once, or both deleted at once.
            const statuses = await Promise.all(
              ids.map((id) =>
                round % 2 === 0
                  ? admin(fresh.base, 'PATCH', `/users/${id}`, { disabled: true })
                  : admin(fresh.base, 'DELETE', `/users/${id}`),
              ),
            );
            expect([round, statuses.map((r) => r.status).sort()]).toEqual([
              round,
              round % 2 === 0 ? [200, 409] : [204, 409],
            ]);
            expect(await enabledOperators()).toBe(1);
            if (round % 2 === 0) {
              for (const id of ids)
                expect((await admin(fresh.base, 'PATCH', `/users/${id}`, { disabled: false })).status).toBe(
                  200,
                );
            } else {
              const survivor = statuses[0]?.status === 409 ? ids[0] : ids[1];
              const replacement = await admin(fresh.base, 'POST', '/users', {
                email: `op-${round}@example.com`,
                password: PASSWORD,
                workspaceIds: [],
                operator: true,
              });
              ids.splice(0, 2, survivor ?? '', replacement.json.id);
            }
            expect(await enabledOperators()).toBe(2);
          }
        });
      });
    },
  );
}
