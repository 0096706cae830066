/**
 * The three ways customers sign render URLs sign exactly as the service verifies: the SDK's
 * `signRenderUrl` (`@platen/client`, WebCrypto), `platen sign-url`, and the shell recipe in
 * docs/api.md (run as written, with openssl). Each URL is checked against the service's own signer
 * and then rendered by a real server; a URL changed after signing, or expired, is refused.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRenderUrl } from '../clients/typescript/src/index.ts';
import { signUrl } from '../src/auth/index.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const root = new URL('..', import.meta.url).pathname;
let server: TestServer;
let templateId = '';
let otherTemplateId = '';
let secret = '';
beforeAll(async () => {
  server = await startTestServer('sqlite');
  const { workspaceId, key } = await workspaceWithKey(server.base, { credits: 10 });
  const create = async () =>
    (
      await http(server.base, 'POST', '/v1/templates', {
        body: { name: 't', document: simpleDocument() },
        headers: bearer(key),
      })
    ).json.id;
  templateId = await create();
  otherTemplateId = await create();
  secret = (await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {})).json
    .secret;
});
afterAll(() => server.close());

const rendered = async (url: string) => {
  const response = await fetch(url);
  const type = response.headers.get('content-type');
  const code = type?.startsWith('application/json') ? (await response.json()).error?.code : undefined;
  return { status: response.status, type: code ?? type };
};

describe('signing helpers', () => {
  it('the SDK signs as the service does, special characters and options included', async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const variables = { name: 'Zoë & Co. — 100% "real"', 'odd name': 'a+b=c?d/e' };
    const url = await signRenderUrl({
      baseUrl: `${server.base}/`,
      templateId,
      format: 'jpeg',
      variables,
      options: { scale: 2, quality: 80 },
      expiresAt: new Date(exp * 1000),
      secret,
    });
    const path = `/v1/templates/${templateId}/image.jpeg`;
    const params = { ...variables, scale: '2', quality: '80', exp: String(exp) };
    expect(url).toBe(signUrl(server.base, path, params, secret));
    expect(await rendered(url)).toEqual({ status: 200, type: 'image/jpeg' });
  });

  it('a signed URL changed afterwards, or past its expiry, is refused', async () => {
    const url = await signRenderUrl({
      baseUrl: server.base,
      templateId,
      variables: { name: 'Ada' },
      secret,
    });
    expect(await rendered(url)).toEqual({ status: 200, type: 'image/png' });
    const refused = { status: 403, type: 'INVALID_SIGNATURE' };
    expect(await rendered(url.replace('name=Ada', 'name=Eve'))).toEqual(refused);
    expect(await rendered(url.replace(templateId, otherTemplateId))).toEqual(refused);
    expect(await rendered(url.replace('?', '?scale=2&'))).toEqual(refused);
    expect(await rendered(url.replace(/&sig=.*$/, ''))).toEqual(refused);
    const wrongSecret = await signRenderUrl({ baseUrl: server.base, templateId, secret: `${secret}x` });
    expect(await rendered(wrongSecret)).toEqual(refused);
    const expired = await signRenderUrl({
      baseUrl: server.base,
      templateId,
      expiresAt: new Date(Date.now() - 60_000),
      secret,
    });
    expect(await rendered(expired)).toEqual({ status: 403, type: 'URL_EXPIRED' });
  });

  it('refuses variable names the URL reserves for options, and a missing secret', async () => {
    await expect(
      signRenderUrl({ baseUrl: server.base, templateId, variables: { scale: '2' }, secret }),
    ).rejects.toThrow(TypeError);
    await expect(signRenderUrl({ baseUrl: server.base, templateId, secret: '' })).rejects.toThrow(/secret/);
  });

  it('platen sign-url prints the same URL', async () => {
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'bin/platen.js'),
        'sign-url',
        '--template',
        templateId,
        '--var',
        'name=Hello World',
        '--scale',
        '2',
      ],
      { env: { ...process.env, PLATEN_URL_SECRET: secret, PLATEN_BASE_URL: server.base }, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    const url = run.stdout.trim();
    expect(url).toBe(
      signUrl(
        server.base,
        `/v1/templates/${templateId}/image.png`,
        { name: 'Hello World', scale: '2' },
        secret,
      ),
    );
    expect(await rendered(url)).toEqual({ status: 200, type: 'image/png' });
    const bad = spawnSync(
      process.execPath,
      [join(root, 'bin/platen.js'), 'sign-url', '--template', templateId],
      {
        env: { ...process.env, PLATEN_URL_SECRET: '' },
        encoding: 'utf8',
      },
    );
    expect(bad.status).toBe(2);
  });

  it('the shell recipe in docs/api.md signs as the service does', async () => {
    const api = readFileSync(join(root, 'docs/api.md'), 'utf8');
    const recipe = /<!-- sign-url-shell -->\n```sh\n([\s\S]*?)```/.exec(api)?.[1];
    expect(recipe).toBeDefined();
    const exp = String(Math.floor(Date.now() / 1000) + 600);
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', recipe ?? ''], {
      env: {
        PATH: process.env.PATH,
        TEMPLATE_ID: templateId,
        EXP: exp,
        PLATEN_URL_SECRET: secret,
        PLATEN_BASE_URL: server.base,
      },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const url = run.stdout.trim();
    const path = `/v1/templates/${templateId}/image.png`;
    expect(url).toBe(signUrl(server.base, path, { exp, headline: 'Summer sale' }, secret));
    expect(await rendered(url)).toEqual({ status: 200, type: 'image/png' });
  });
});
