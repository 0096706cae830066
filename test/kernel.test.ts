/**
 * The kernel fails closed at start-up: a /v1 route that declares no authentication, or a kind no
 * authenticator serves, refuses to register; a declared kind runs its authenticator.
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
});
