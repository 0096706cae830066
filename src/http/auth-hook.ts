/**
 * Runs authentication before the body is read (onRequest), so credential errors come before
 * INVALID_JSON and validation, as the contract orders them. Routes declare `config.auth`; a /v1 or
 * /admin route that does not is refused at registration (fail closed).
 */
import type { FastifyInstance } from 'fastify';
import { authenticateApiKey } from '../auth/api-key-auth.ts';
import { AppError } from '../core/errors.ts';
import { constantTimeEqual, sha256Hex } from '../core/ids.ts';
import type { AppDeps } from './context.ts';

export interface RegisteredRoute {
  method: string;
  url: string;
  auth: string;
  scope: string | null;
}

export function installAuth(app: FastifyInstance, deps: AppDeps, registry: RegisteredRoute[]): void {
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    const guarded = route.url.startsWith('/v1/') || route.url.startsWith('/admin/');
    if (guarded && !auth) throw new Error(`Route ${route.method} ${route.url} declares no auth`);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      registry.push({ method, url: route.url, auth: auth ?? 'none', scope: route.config?.scope ?? null });
    }
  });

  app.addHook('onRequest', async (request) => {
    const auth = request.routeOptions.config.auth;
    if (auth === 'apiKey') {
      request.principal = await authenticateApiKey(
        deps.store,
        request.headers,
        request.routeOptions.config.scope ?? null,
      );
    } else if (auth === 'admin') {
      checkAdminToken(deps.config.PLATEN_ADMIN_TOKEN, request.headers.authorization);
    }
  });
}

function checkAdminToken(expected: string | undefined, header: string | undefined): void {
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
  // Hash both sides so the comparison is constant-time whatever the lengths.
  if (!expected || !given || !constantTimeEqual(sha256Hex(given), sha256Hex(expected))) {
    throw new AppError('UNAUTHORIZED');
  }
}
