/**
 * Runs authentication before the body is read (onRequest), so credential errors come before
 * INVALID_JSON and validation, as the contract orders them (docs/api.md, Errors): the route's
 * authenticator checks the credential; then, once here for every kind, the workspace's suspension
 * (as the credential check read it alongside, else read here),
 * a workspace named by `X-Workspace-Id`, and the route's scope. Every /v1 and /admin route declares
 * `config.auth`; one that does not, or declares a kind no authenticator serves, refuses to register,
 * so a forgotten or unfinished check fails the start, never a request.
 */
import type { FastifyInstance } from 'fastify';
import type { Authenticators, AuthKind, Principal, Scope } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';

export interface RegisteredRoute {
  method: string;
  url: string;
  auth: AuthKind;
  scope: string | null;
}

/** Whether a workspace is suspended (false for one that does not exist: its lookups answer 404). */
export type SuspensionCheck = (workspaceId: string) => Promise<boolean>;

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * What a suspended workspace may still do (docs/api.md, Suspended workspaces): operators manage it
 * (the operator API, and every console screen, so they can see and reinstate it); its members may
 * look (the console's reads) but change nothing; nothing else is served: no API key, OAuth token,
 * embed session or signed URL, and no console person on the machine API (renders, templates).
 */
function allowedWhileSuspended(kind: AuthKind, principal: Principal, method: string): boolean {
  if (kind !== 'console' || principal.actor.type !== 'person') return false;
  return principal.actor.operator || SAFE_METHODS.has(method.toUpperCase());
}

export function installAuth(
  app: FastifyInstance,
  authenticators: Authenticators,
  registry: RegisteredRoute[],
  suspended: SuspensionCheck,
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
    const requiredScope: Scope | null = request.routeOptions.config.scope ?? null;
    const { principal, workspaceSuspended } = await authenticate({
      headers: request.headers,
      url: request.url,
      method: request.method,
      params: (request.params ?? {}) as Record<string, string | undefined>,
      requiredScope,
      address: request.ip,
    });
    const { workspaceId } = principal;
    if (
      workspaceId !== '' &&
      (workspaceSuspended ?? (await suspended(workspaceId))) &&
      !allowedWhileSuspended(auth, principal, request.method)
    )
      throw new AppError('SUBSCRIPTION_SUSPENDED');
    // A console person's workspace is the one they named; anyone else may only name their own.
    const named = request.headers['x-workspace-id'];
    if (named !== undefined && workspaceId !== '' && named !== workspaceId)
      throw new AppError('WORKSPACE_MISMATCH');
    if (requiredScope && !principal.scopes.has(requiredScope))
      throw (
        authenticate.insufficientScope?.(requiredScope) ??
        new AppError('INSUFFICIENT_SCOPE', `This request needs the scope ${requiredScope}.`, {
          requiredScope,
        })
      );
    request.principal = principal;
  });
}
