/**
 * Runs authentication before the body is read (onRequest), so credential errors come before
 * INVALID_JSON and validation, as the contract orders them. Every /v1 and /admin route declares
 * `config.auth`; one that does not, or declares a kind no authenticator serves, refuses to register,
 * so a forgotten or unfinished check fails the start, never a request.
 */
import type { FastifyInstance } from 'fastify';
import type { Authenticators, AuthKind } from '../auth/index.ts';

export interface RegisteredRoute {
  method: string;
  url: string;
  auth: AuthKind;
  scope: string | null;
}

export function installAuth(
  app: FastifyInstance,
  authenticators: Authenticators,
  registry: RegisteredRoute[],
): void {
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    const guarded = ['/v1/', '/admin/', '/console/api/'].some((prefix) => route.url.startsWith(prefix));
    // CORS preflights (OPTIONS) carry no credentials by the Fetch standard; everything else declares.
    const preflight = route.method === 'OPTIONS';
    if (guarded && !auth && !preflight)
      throw new Error(`Route ${route.method} ${route.url} declares no auth`);
    if (auth && auth !== 'none' && !authenticators[auth])
      throw new Error(
        `Route ${route.method} ${route.url} needs the '${auth}' authenticator, which is not installed`,
      );
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      registry.push({ method, url: route.url, auth: auth ?? 'none', scope: route.config?.scope ?? null });
    }
  });

  app.addHook('onRequest', async (request) => {
    const auth = request.routeOptions.config.auth;
    if (!auth || auth === 'none') return;
    const authenticate = authenticators[auth];
    // onRoute refused such routes already; fail closed all the same.
    if (!authenticate) throw new Error(`No authenticator for '${auth}'`);
    request.principal = await authenticate({
      headers: request.headers,
      url: request.url,
      method: request.method,
      params: (request.params ?? {}) as Record<string, string | undefined>,
      requiredScope: request.routeOptions.config.scope ?? null,
    });
  });
}
