/**
 * People: the operator's users API, the sign-in page (labels, headers, cookie attributes on http
 * and https base URLs), sign-out with its CSRF token, the consent page's content, and the
 * brute-force limits per account and per client address (delays that double, never a lock), which
 * hold in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './harness/backends.ts';
import { browse, CookieJar, createUser, parseForm, submit } from './harness/oauth.ts';
import { authorizationUrl, registerClient } from './harness/oauth-flow.ts';
import { admin, http, startTestServer, type TestServer } from './harness/server.ts';

const signIn = (base: string, fields: Record<string, string>, jar = new CookieJar(), origin = base) =>
  submit(`${base}/oauth/signin`, jar, fields, origin);

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `people on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      let workspaces: string[];
      beforeAll(async () => {
        server = await startTestServer(backend.name);
        workspaces = [];
        for (const name of ['Alpha <&>', 'Beta'])
          workspaces.push((await admin(server.base, 'POST', '/workspaces', { name })).json.id);
      });
      afterAll(() => server.close());

      describe('users API', () => {
        it('creates a user (201) without ever answering the password or its hash, lists and reads it', async () => {
          const res = await admin(server.base, 'POST', '/users', {
            email: 'Linus@Example.com',
            password: 'a password long enough',
            workspaceIds: workspaces,
          });
          expect(res.status).toBe(201);
          expect(Object.keys(res.json).sort()).toEqual([
            'createdAt',
            'disabled',
            'email',
            'id',
            'lastSignInAt',
            'lockedUntil',
            'operator',
            'workspaceIds',
          ]);
          expect(res.json).toMatchObject({
            email: 'linus@example.com',
            workspaceIds: workspaces,
            disabled: false,
            lastSignInAt: null,
            lockedUntil: null,
          });
          expect(res.json.id).toMatch(/^usr_[0-9A-Za-z]{16,}$/);
          expect(res.bytes.toString()).not.toMatch(/argon2|password/i);
          expect((await admin(server.base, 'GET', `/users/${res.json.id}`)).json).toEqual(res.json);
          const list = await admin(server.base, 'GET', '/users');
          expect(list.json.items).toContainEqual(res.json);
          const stored = await server.store.handle.db
            .selectFrom('users')
            .select('password_hash')
            .where('id', '=', res.json.id)
            .executeTakeFirst();
          expect(stored?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
        });

        it('answers a taken email (any case) 409 CONFLICT', async () => {
          const body = {
            email: 'dup@example.com',
            password: 'a password long enough',
            workspaceIds: [workspaces[0]],
          };
          expect((await admin(server.base, 'POST', '/users', body)).status).toBe(201);
          const again = await admin(server.base, 'POST', '/users', { ...body, email: 'DUP@example.com' });
          expect([again.status, again.json.error.code]).toEqual([409, 'CONFLICT']);
        });

        it('answers an unknown workspace 404 and bad fields 400, creating nobody', async () => {
          const before = (await admin(server.base, 'GET', '/users')).json.items.length;
          const missing = await admin(server.base, 'POST', '/users', {
            email: 'nobody@example.com',
            password: 'a password long enough',
            workspaceIds: [workspaces[0], 'ws_000000000000000000000000'],
          });
          expect([missing.status, missing.json.error.code]).toEqual([404, 'NOT_FOUND']);
          for (const body of [
            { email: 'not-an-email', password: 'a password long enough', workspaceIds: [workspaces[0]] },
            { email: 'x@example.com', password: 'short', workspaceIds: [workspaces[0]] },
            { email: 'x@example.com', password: 'a password long enough', workspaceIds: [] },
            { email: 'x@example.com', password: 'a password long enough' },
            {
              email: 'x@example.com',
              password: 'a password long enough',
              workspaceIds: [workspaces[0]],
              admin: true,
            },
          ]) {
            const res = await admin(server.base, 'POST', '/users', body);
            expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
          }
          expect((await admin(server.base, 'GET', '/users')).json.items.length).toBe(before);
          const unknown = await admin(server.base, 'GET', '/users/usr_000000000000000000000000');
          expect([unknown.status, unknown.json.error.code]).toEqual([404, 'NOT_FOUND']);
        });
      });

      describe('sign-in and sign-out', () => {
        const person = { email: 'pat@example.com', password: 'pat has a long password' };
        beforeAll(async () => {
          await createUser(server.base, { ...person, workspaceIds: workspaces });
        });

        it('serves a labelled form that cannot be framed or cached', async () => {
          const res = await http(server.base, 'GET', '/oauth/signin');
          const html = res.bytes.toString();
          expect(res.status).toBe(200);
          expect(res.headers.get('content-type')).toMatch(/^text\/html/);
          expect(html).toMatch(/<label for="email">Email<\/label>/);
          expect(html).toMatch(/<input id="email" name="email"/);
          expect(html).toMatch(/<label for="password">Password<\/label>/);
          expect(html).toMatch(/<input id="password" name="password" type="password"/);
          expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
          expect(res.headers.get('x-frame-options')).toBe('DENY');
          expect(res.headers.get('cache-control')).toBe('no-store');
          expect(res.headers.get('content-security-policy')).toBe(
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
          );
        });

        it('sets an HttpOnly, SameSite=Lax session cookie on success (no Secure on http) and 303s on', async () => {
          const res = await signIn(server.base, person);
          expect(res.status).toBe(303);
          const cookie = res.headers.getSetCookie()[0] ?? '';
          expect(cookie).toMatch(/^platen_session=[A-Za-z0-9_-]{40,};/);
          expect(cookie).toContain('HttpOnly');
          expect(cookie).toContain('SameSite=Lax');
          expect(cookie).toContain('Path=/');
          expect(cookie).not.toContain('Secure');
          expect(cookie).not.toContain('Domain');
        });

        it('refuses a wrong password or an unknown email with the same answer and no cookie', async () => {
          const wrong = await signIn(server.base, { ...person, password: 'wrong password' });
          const unknown = await signIn(server.base, {
            email: 'ghost@example.com',
            password: 'wrong password',
          });
          for (const res of [wrong, unknown]) {
            expect(res.status).toBe(400);
            expect(res.headers.getSetCookie()).toEqual([]);
          }
        });

        it('refuses a sign-in posted from another site', async () => {
          const res = await signIn(server.base, person, new CookieJar(), 'https://evil.example');
          expect(res.status).toBe(403);
          expect(res.headers.getSetCookie()).toEqual([]);
        });

        it('never redirects off the service after sign-in', async () => {
          for (const next of [
            'https://evil.example/',
            '//evil.example/oauth/x',
            '/oauth/\\evil',
            '/v1/templates',
          ]) {
            const res = await signIn(server.base, { ...person, next });
            expect([next, res.status, res.headers.get('location')]).toEqual([next, 303, '/oauth/signin']);
          }
        });

        it('signs out with the CSRF token only, and the session ends', async () => {
          const jar = new CookieJar();
          await signIn(server.base, person, jar);
          const page = await browse(`${server.base}/oauth/signin`, jar);
          const form = parseForm(await page.text());
          expect(form?.action).toBe('/oauth/signout');
          const forged = await submit(`${server.base}/oauth/signout`, jar, { csrf: 'forged' }, server.base);
          expect(forged.status).toBe(403);
          const foreign = await submit(
            `${server.base}/oauth/signout`,
            jar,
            form?.fields ?? {},
            'https://evil.example',
          );
          expect(foreign.status).toBe(403);
          const out = await submit(`${server.base}/oauth/signout`, jar, form?.fields ?? {}, server.base);
          expect(out.status).toBe(200);
          expect(out.headers.getSetCookie()[0]).toMatch(/^platen_session=; Max-Age=0/);
          // The old cookie value is dead even if a browser kept it.
          const stale = new CookieJar();
          stale.cookies.set('platen_session', [...jar.cookies.values()][0] ?? 'x');
          const again = await browse(`${server.base}/oauth/signin`, stale);
          expect(await again.text()).toContain('name="password"');
        });

        it('shows a consent page naming the client and its host, the scopes in words and the workspaces', async () => {
          const flow = await registerClient(server.base, { client_name: 'Claude <Desktop>' });
          const jar = new CookieJar();
          await signIn(server.base, person, jar);
          const { url } = await authorizationUrl(flow, { scope: 'template:read render:write' });
          const toConsent = await browse(url.href, jar);
          expect(toConsent.status).toBe(302);
          const page = await browse(new URL(toConsent.headers.get('location') ?? '', server.base).href, jar);
          const html = await page.text();
          expect(html).toContain('Claude &lt;Desktop&gt;');
          expect(html).toContain('127.0.0.1:8976');
          expect(html).toContain('See your templates');
          expect(html).toContain('spends credits');
          expect(html).not.toContain('Upload');
          expect(html).toContain('Alpha &lt;&amp;&gt;');
          const form = parseForm(html);
          expect(form?.selects.workspace).toEqual({ options: workspaces, selected: workspaces[0] });
          expect(form?.buttons).toEqual({ Allow: undefined, Deny: '/oauth/authorize/deny' });
          expect(form?.fields.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
          expect(html).toMatch(/<label for="workspace">/);
        });
      });
    },
  );
}

describe('session cookie on an https base URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { PLATEN_BASE_URL: 'https://platen.example' });
  });
  afterAll(() => server.close());

  it('uses the __Host- prefix with Secure, and checks Origin against the https base', async () => {
    // The server listens on plain http (behind a TLS proxy, as deployed); its public address is https.
    const local = server.base;
    const ws = await admin(local, 'POST', '/workspaces', { name: 'w' });
    await createUser(local, {
      email: 'sec@example.com',
      password: 'secure long password',
      workspaceIds: [ws.json.id],
    });
    const foreign = await signIn(
      local,
      { email: 'sec@example.com', password: 'secure long password' },
      new CookieJar(),
      local,
    );
    expect(foreign.status).toBe(403);
    const res = await signIn(
      local,
      { email: 'sec@example.com', password: 'secure long password' },
      new CookieJar(),
      'https://platen.example',
    );
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie()[0] ?? '';
    expect(cookie).toMatch(/^__Host-platen_session=[A-Za-z0-9_-]{40,};/);
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Domain');
  });
});

describe('brute-force limits', () => {
  let server: TestServer;
  let workspaceId: string;
  beforeAll(async () => {
    server = await startTestServer('sqlite', {
      PLATEN_SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3',
      PLATEN_SIGNIN_MAX_FAILURES_PER_ADDRESS: '6',
    });
    workspaceId = (await admin(server.base, 'POST', '/workspaces', { name: 'w' })).json.id;
    for (const email of ['target@example.com', 'bystander@example.com'])
      await createUser(server.base, { email, password: 'the right password', workspaceIds: [workspaceId] });
  });
  afterAll(() => server.close());

  it('slows an account down after its failures (429, Retry-After 1 s, then 2 s), even for the right password, and lets the person in once they wait', async () => {
    for (let i = 0; i < 3; i++)
      expect((await signIn(server.base, { email: 'target@example.com', password: 'guess' })).status).toBe(
        400,
      );
    const right = { email: 'TARGET@example.com', password: 'the right password' };
    const slowed = await signIn(server.base, right);
    expect(slowed.status).toBe(429);
    expect(slowed.headers.get('retry-after')).toBe('1');
    expect(slowed.headers.getSetCookie()).toEqual([]);
    expect(await slowed.text()).toMatch(/try again later/i);
    // The refused attempt counted for nothing; the next failure after the wait doubles the delay.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await signIn(server.base, { email: 'target@example.com', password: 'guess' })).status).toBe(400);
    const longer = await signIn(server.base, right);
    expect([longer.status, longer.headers.get('retry-after')]).toEqual([429, '2']);
    // Nothing locks: once the delay is over, the right password signs in.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await signIn(server.base, right)).status).toBe(303);
    const log = (await admin(server.base, 'GET', '/audit-log?action=signin.locked')).json.items;
    expect(log[0]).toMatchObject({
      actor: { type: 'system', id: null, label: 'sign-in' },
      address: '127.0.0.1',
      details: { email: 'target@example.com', limits: ['account-address'] },
    });
    // Another account from the same address is not slowed (4 of 6 address failures so far).
    expect(
      (await signIn(server.base, { email: 'bystander@example.com', password: 'the right password' })).status,
    ).toBe(303);
  });

  it('slows the client address down after its failures, across accounts; the count is in the database', async () => {
    for (const email of ['a@example.com', 'b@example.com'])
      expect((await signIn(server.base, { email, password: 'guess' })).status).toBe(400);
    const locked = await signIn(server.base, {
      email: 'bystander@example.com',
      password: 'the right password',
    });
    expect([locked.status, locked.headers.get('retry-after')]).toEqual([429, '1']);
    const rows = await server.store.handle.db.selectFrom('signin_failures').select('subject').execute();
    expect(rows.filter((r) => r.subject === 'address:127.0.0.1')).toHaveLength(6);
  });
});
