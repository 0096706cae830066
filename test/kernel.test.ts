/**
 * The kernel fails closed at start-up: a /v1 route that declares no authentication, or a kind no
 * authenticator serves, refuses to register; a declared kind runs its authenticator. CORS answers
 * only on the routes of the paths a feature opens to browsers.
 */
import { describe, expect, it } from 'vitest';
import type { Authenticators, AuthKind } from '../src/auth/index.ts';
import { createLogger } from '../src/core/logger.ts';
import type { Feature } from '../src/http/context.ts';
import { buildKernel } from '../src/http/kernel.ts';

const featureWith = (auth: AuthKind | undefined): Feature => ({
  name: 'probe',
  routes: async (app) => {
    app.get('/v1/probe', { config: auth ? { auth } : {} }, async (request) => ({
      principal: request.principal,
    }));
  },
});

const kernel = (feature: Feature, authenticators: Authenticators = {}) =>
  buildKernel({
    logger: createLogger('silent'),
    baseUrl: 'http://localhost',
    maxBodyBytes: 1024,
    authenticators,
    workspaceSuspended: async () => false,
    readiness: {},
    features: [feature],
  });

describe('the kernel', () => {
  it('refuses to start with a /v1 route that declares no auth', async () => {
    await expect(kernel(featureWith(undefined)).then(({ app }) => app.ready())).rejects.toThrow(
      /declares no auth/,
    );
  });

  it('refuses to start with a route whose kind has no authenticator', async () => {
    await expect(kernel(featureWith('embedSession')).then(({ app }) => app.ready())).rejects.toThrow(
      /'embedSession' authenticator/,
    );
  });

  it('runs the authenticator a route declares and hands its principal to the handler', async () => {
    const principal = {
      workspaceId: 'ws_x',
      scopes: new Set(),
      actor: { type: 'oauth', clientId: 'c', userId: 'u' },
      address: '127.0.0.1',
    };
    const { app } = await kernel(featureWith('oauth'), {
      oauth: async ({ headers }) => {
        if (headers.authorization !== 'Bearer ok') throw new Error('refused');
        return { principal: principal as never };
      },
    });
    const ok = await app.inject({ method: 'GET', url: '/v1/probe', headers: { authorization: 'Bearer ok' } });
    expect(ok.json()).toMatchObject({ principal: { workspaceId: 'ws_x' } });
    const refused = await app.inject({ method: 'GET', url: '/v1/probe' });
    expect([refused.statusCode, refused.json().error.code]).toEqual([500, 'INTERNAL']);
    await app.close();
  });

  describe('CORS', () => {
    const browserFeature: Feature = {
      name: 'browser',
      corsPaths: (url) => url.startsWith('/v1/open/'),
      routes: async (app) => {
        app.get('/v1/open/:id', { config: { auth: 'none' } }, async () => ({ open: true }));
        app.get('/v1/closed/:id', { config: { auth: 'none' } }, async () => ({ open: false }));
      },
    };
    const origin = 'https://customer.example';
    const preflight = { origin, 'access-control-request-method': 'GET' };

    it('answers CORS on an open route and its preflights, and on nothing else', async () => {
      const { app } = await kernel(browserFeature);
      const cors = async (
        method: 'GET' | 'OPTIONS' | 'HEAD',
        url: string,
        headers: Record<string, string>,
      ) => {
        const res = await app.inject({ method, url, headers });
        return [url, res.statusCode, res.headers['access-control-allow-origin'] ?? null];
      };
      expect(await cors('GET', '/v1/open/a', { origin })).toEqual(['/v1/open/a', 200, '*']);
      expect(await cors('HEAD', '/v1/open/a', { origin })).toEqual(['/v1/open/a', 200, '*']);
      expect(await cors('OPTIONS', '/v1/open/a?x=1', preflight)).toEqual(['/v1/open/a?x=1', 204, '*']);
      // A trailing slash reaches the same route (ignoreTrailingSlash), and its preflight agrees.
      expect(await cors('GET', '/v1/open/a/', { origin })).toEqual(['/v1/open/a/', 200, '*']);
      expect(await cors('OPTIONS', '/v1/open/a/', preflight)).toEqual(['/v1/open/a/', 204, '*']);
      expect(await cors('GET', '/v1/closed/a', { origin })).toEqual(['/v1/closed/a', 200, null]);
      expect(await cors('HEAD', '/v1/closed/a', { origin })).toEqual(['/v1/closed/a', 200, null]);
      expect(await cors('GET', '/v1/nowhere', { origin })).toEqual(['/v1/nowhere', 404, null]);
      expect(await cors('GET', '/openapi.json', { origin })).toEqual(['/openapi.json', 200, null]);
      const opened = await app.inject({ method: 'OPTIONS', url: '/v1/open/a', headers: preflight });
      expect(opened.headers['access-control-allow-methods']).toContain('GET');
      expect(opened.headers['access-control-max-age']).toBe('600');
      await app.close();
    });

    it('refuses a preflight on a closed path as an unknown route, and a bare OPTIONS on an open one', async () => {
      const { app } = await kernel(browserFeature);
      for (const url of ['/v1/closed/a', '/v1/nowhere', '/openapi.json']) {
        const res = await app.inject({ method: 'OPTIONS', url, headers: preflight });
        expect([url, res.statusCode, res.json().error.code]).toEqual([url, 404, 'NOT_FOUND']);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.headers['access-control-allow-methods']).toBeUndefined();
      }
      const bare = await app.inject({ method: 'OPTIONS', url: '/v1/open/a', headers: { origin } });
      expect([bare.statusCode, bare.json().error.code]).toEqual([400, 'VALIDATION_FAILED']);
      await app.close();
    });
  });
});
