/**
 * No log line holds a secret: a real server's log output, captured while it is asked for the console
 * setup link (query and path forms), a password-reset link, a signed render URL, OAuth pages with a
 * `code` and `state`, and URLs carrying credentials of ours. The route and harmless options stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUrl } from '../src/auth/url-signature.ts';
import { randomToken, sha256Hex } from '../src/core/ids.ts';
import { redactUrl } from '../src/core/logger.ts';
import type { Services } from '../src/services.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

describe('redactUrl', () => {
  it.each([
    ['/console/setup?token=abc123secret', '/console/setup?token=[redacted]'],
    ['/console/setup/abc123secret', '/console/setup/[redacted]'],
    ['/console/%73etup/abc123secret', '/console/setup/[redacted]'],
    ['/console/reset/abc123secret?x=1', '/console/reset/[redacted]?x=1'],
    ['/files/renders/ws_1/abcdef/rnd_1.png', '/files/[redacted]'],
    [
      '/v1/templates/tpl_1/image.png?headline=Hi&exp=99&sig=deadbeef',
      '/v1/templates/tpl_1/image.png?headline=Hi&exp=99&sig=[redacted]',
    ],
    ['/v1/x?%73ig=deadbeef', '/v1/x?%73ig=[redacted]'],
    ['/cb?code=pac_x&state=s3cr3t&iss=y', '/cb?code=[redacted]&state=[redacted]&iss=y'],
    ['/oauth/consent?request=abcdef', '/oauth/consent?request=[redacted]'],
    [
      '/signin?next=%2Foauth%2Fconsent%3Frequest%3Dabcdef',
      '/signin?next=%2Foauth%2Fconsent%3Frequest%3D%5Bredacted%5D',
    ],
    ['/v1/templates?limit=5&cursor=abc&designId=d', '/v1/templates?limit=5&cursor=abc&designId=d'],
    [`/v1/anything/plt_${'A'.repeat(40)}`, '/v1/anything/plt_[redacted]'],
    ['/v1/x?access_token=zzz&client_secret=q', '/v1/x?access_token=[redacted]&client_secret=[redacted]'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('the request log of a real server', () => {
  let base = '';
  let services: Services;
  let server: TestServer;
  const lines: string[] = [];

  beforeAll(async () => {
    server = await startTestServer('sqlite', {}, { logTo: lines });
    base = server.base;
    services = server.services;
  });
  afterAll(() => server.close());

  it('logs the requests, never their tokens, signatures, codes or credentials', async () => {
    const secrets: string[] = [];
    // A setup link as the first start makes one (kept only as its hash).
    const setupToken = randomToken(32);
    await services.store.console.createSetupLink(sha256Hex(setupToken), new Date(Date.now() + 600_000));
    secrets.push(setupToken);
    expect((await fetch(`${base}/console/setup?token=${setupToken}`)).status).toBe(200);
    await fetch(`${base}/console/setup/${setupToken}`);
    const resetToken = 'resetTokenAbCdEfGhIjKlMnOpQrStUv';
    secrets.push(resetToken);
    await fetch(`${base}/console/reset/${resetToken}`);

    const { workspaceId, key } = await workspaceWithKey(base, { credits: 10 });
    secrets.push(key);
    const template = await http(base, 'POST', '/v1/templates', {
      body: { name: 't', document: simpleDocument() },
      headers: bearer(key),
    });
    const secret = await admin(base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, { name: 's' });
    expect(secret.status).toBe(201);
    secrets.push(secret.json.secret);
    const path = `/v1/templates/${template.json.id}/image.png`;
    const signed = signUrl(
      base,
      path,
      { name: 'Ada', exp: String(Math.floor(Date.now() / 1000) + 600) },
      secret.json.secret,
    );
    const sig = new URL(signed).searchParams.get('sig') ?? '';
    secrets.push(sig);
    expect((await fetch(signed)).status).toBe(200);

    const code = 'pac_CodeCodeCodeCodeCodeCodeCode';
    const state = 'stateValueThatIsSecret123';
    secrets.push(code, state);
    await fetch(`${base}/oauth/authorize?response_type=code&client_id=x&state=${state}&code=${code}`);
    await fetch(`${base}/v1/templates?api_key=${key}`);
    await fetch(`${base}${new URL(signed).pathname}/${key}`);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const log = lines.join('');
    expect(log).toContain('"url":"/console/setup?token=[redacted]"');
    expect(log).toContain('"url":"/console/setup/[redacted]"');
    expect(log).toContain('"url":"/console/reset/[redacted]"');
    expect(log).toContain(`"url":"${path}?exp=`);
    for (const value of secrets) expect(log, value).not.toContain(value);
  });
});
