/**
 * End to end: the service started the way the README says (`npm start`), driven over HTTP on
 * loopback. Covers the first-start key, templates and assets, restart persistence, configuration
 * errors, secrets in logs, OpenAPI and docs, and graceful shutdown.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1X1, promoCard } from './fixtures/samples.ts';
import { type ServiceProcess, startService, waitForExit } from './harness/process.ts';
import { ADMIN_TOKEN, bearer, http } from './harness/server.ts';

describe('the service as a user starts it', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platen-e2e-'));
  const env = {
    PLATEN_DATA_DIR: dataDir,
    PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
    PLATEN_LOG_LEVEL: 'debug',
    PLATEN_SOME_TYPO: '1',
  };
  let service: ServiceProcess;
  let key: string;
  let templateId: string;
  let assetUrl: string;

  beforeAll(async () => {
    service = await startService(env);
  });
  afterAll(async () => {
    await service?.stop('SIGKILL');
  });

  it('prints an all-scopes key for the default workspace once, and warns about unknown variables', () => {
    const match = /PLATEN_API_KEY=(plt_[0-9A-Za-z]{32,})/.exec(service.output());
    expect(match).not.toBeNull();
    key = match?.[1] ?? '';
    expect(service.output()).toContain('PLATEN_SOME_TYPO');
  });

  it('creates a template and an asset over HTTP', async () => {
    const t = await http(service.base, 'POST', '/v1/templates', {
      body: { name: 'Promo', document: promoCard },
      headers: bearer(key),
    });
    expect(t.status).toBe(201);
    templateId = t.json.id;
    const a = await http(service.base, 'POST', '/v1/assets', {
      raw: PNG_1X1,
      headers: { ...bearer(key), 'content-type': 'image/png' },
    });
    expect(a.status).toBe(201);
    assetUrl = a.json.url;
    expect(assetUrl.startsWith(service.base)).toBe(true);
  });

  it('puts a request id on every response and in the error envelope', async () => {
    const res = await http(service.base, 'GET', '/v1/templates');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.json.error.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('serves readiness, OpenAPI 3.1 and a docs page', async () => {
    expect((await http(service.base, 'GET', '/readyz')).json.status).toBe('ready');
    const spec = await http(service.base, 'GET', '/openapi.json');
    expect(spec.json.openapi).toBe('3.1.0');
    expect(Object.keys(spec.json.paths)).toEqual(
      expect.arrayContaining(['/v1/templates', '/v1/templates/{id}', '/v1/assets']),
    );
    const docs = await fetch(`${service.base}/docs`, { redirect: 'follow' });
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('<html');
  });

  it('keeps templates and assets across a graceful restart, and never prints the key again', async () => {
    await service.stop('SIGTERM');
    const firstOutput = service.output();
    // npm dies of the signal; the service itself logs its orderly shutdown before exiting.
    expect(service.child.exitCode !== null || service.child.signalCode !== null).toBe(true);
    expect(firstOutput).toContain('shutting down');
    // The key appears once (the bootstrap print), never in any log line, even at debug level.
    expect(firstOutput.split(key).length - 1).toBe(1);
    service = await startService({ ...env, PORT: new URL(service.base).port });
    expect(service.output()).not.toContain('PLATEN_API_KEY=');
    const t = await http(service.base, 'GET', `/v1/templates/${templateId}`, { headers: bearer(key) });
    expect(t.json.name).toBe('Promo');
    expect((await fetch(assetUrl)).status).toBe(200);
  });

  it('refuses a second process on the same data directory, leaving the first one serving', async () => {
    const second = await startService(env, { waitReady: false });
    expect(await waitForExit(second)).not.toBe(0);
    expect(second.output()).toContain('in use by another Platen process');
    expect((await http(service.base, 'GET', '/healthz')).status).toBe(200);
  });

  it('stops at start on a bad variable, naming it', async () => {
    const bad = await startService({ ...env, PORT: '70000' }, { waitReady: false });
    const code = await waitForExit(bad);
    expect(code).not.toBe(0);
    expect(bad.output()).toContain('PORT');
    const badUrl = await startService({ ...env, DATABASE_URL: 'mysql://x' }, { waitReady: false });
    expect(await waitForExit(badUrl)).not.toBe(0);
    expect(badUrl.output()).toContain('DATABASE_URL');
  });
});
