/**
 * Helpers for the embed suites: embeds through the operator API, sessions through the minting
 * route, requests with a session token, and tokens the service would never mint (expired, re-signed
 * with another key, naming another workspace), signed with jose like the service signs them.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { RegisteredRoute } from '../../src/http/auth-hook.ts';
import { PNG_1X1, simpleDocument } from '../fixtures/samples.ts';
import { admin, bearer, type HttpResult, http, type TestServer } from './server.ts';

export type RequestOptions = NonNullable<Parameters<typeof http>[3]>;

export async function createEmbed(base: string, workspaceId: string, settings: object = {}) {
  const res = await admin(base, 'POST', `/workspaces/${workspaceId}/embeds`, settings);
  if (res.status !== 201) throw new Error(`embed: ${res.status} ${res.bytes.toString()}`);
  return res.json as { id: string; workspaceId: string } & Record<string, unknown>;
}

export async function patchEmbed(base: string, embedId: string, patch: object): Promise<void> {
  const res = await admin(base, 'PATCH', `/embeds/${embedId}`, patch);
  if (res.status !== 200) throw new Error(`patch embed: ${res.status} ${res.bytes.toString()}`);
}

export async function mint(
  base: string,
  embedId: string,
  userId?: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await mintRaw(base, embedId, userId === undefined ? {} : { userId }, headers);
  if (res.status !== 201) throw new Error(`session: ${res.status} ${res.bytes.toString()}`);
  return res.json.token;
}

export function mintRaw(
  base: string,
  embedId: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  return http(base, 'POST', `/v1/embed/${embedId}/session`, { body, headers });
}

/** A request as the end-user holding `token`. */
export function asSession(base: string, token: string) {
  return (method: string, path: string, options: RequestOptions = {}) =>
    http(base, method, path, { ...options, headers: { ...bearer(token), ...options.headers } });
}

export function uploadPng(base: string, path: string, headers: Record<string, string>) {
  return http(base, 'POST', path, { raw: PNG_1X1, headers: { ...headers, 'content-type': 'image/png' } });
}

/** A request that succeeds for the owner, per embed-session route (`:embedId`, `:templateId` left in). */
/** A request's options, plus a query string for routes that take one. */
export type RouteSample = RequestOptions & { query?: string };

export const embedSamples: Record<string, RouteSample> = {
  'GET /v1/embed/:embedId/templates': {},
  'POST /v1/embed/:embedId/templates': { body: { name: 'n', width: 40, height: 30 } },
  'GET /v1/embed/:embedId/templates/:templateId': {},
  'PUT /v1/embed/:embedId/templates/:templateId': { body: { document: simpleDocument() } },
  'POST /v1/embed/:embedId/templates/:templateId/render': { body: { format: 'png' } },
  'POST /v1/embed/:embedId/templates/:templateId/preflight': { body: { modifications: { name: 'a' } } },
  'GET /v1/embed/:embedId/assets': {},
  'POST /v1/embed/:embedId/assets': { raw: PNG_1X1, headers: { 'content-type': 'image/png' } },
  'GET /v1/embed/:embedId/images': {
    query: `?src=${encodeURIComponent(`data:image/png;base64,${Buffer.from(PNG_1X1).toString('base64')}`)}`,
  },
  'GET /v1/embed/:embedId/fonts': {},
  // The history panel's routes: `:version` is `latest`, so the template needs one published version.
  'GET /v1/embed/:embedId/templates/:templateId/versions': {},
  'POST /v1/embed/:embedId/templates/:templateId/versions': { body: { note: 'n' } },
  'GET /v1/embed/:embedId/templates/:templateId/versions/:version': {},
  'POST /v1/embed/:embedId/templates/:templateId/versions/:version/rollback': {},
  'GET /v1/embed/:embedId/templates/:templateId/diff': {},
  'GET /v1/embed/:embedId/templates/:templateId/diff.png': {},
};

export const routeName = (route: RegisteredRoute) => `${route.method} ${route.url}`;

export function embedRoutes(server: TestServer): RegisteredRoute[] {
  return server.routes.filter((r) => r.auth === 'embedSession');
}

/** Calls `route` with its sample, for `embedId` and `templateId`, with `headers`. */
export function callRoute(
  server: TestServer,
  route: RegisteredRoute,
  ids: { embedId: string; templateId?: string },
  headers: Record<string, string>,
): Promise<HttpResult> {
  const { query = '', ...sample } = embedSamples[routeName(route)] ?? {};
  const path = route.url
    .replace(':embedId', ids.embedId)
    .replace(':templateId', ids.templateId ?? 'none')
    .replace(':version', 'latest');
  return http(server.base, route.method, path + query, {
    ...sample,
    headers: { ...sample.headers, ...headers },
  });
}

const ISSUER = 'platen';

/**
 * A token as the service mints it, with any claim overridden: `key` defaults to the deployment's
 * stored signing key (platen_meta 'embed-session-key'), so an expired token is otherwise genuine.
 */
export async function forgeToken(
  server: TestServer,
  claims: {
    embedId: string;
    workspaceId: string;
    userId?: string;
    expiresInSeconds?: number;
    key?: Uint8Array;
  },
): Promise<string> {
  const stored = await server.store.meta.get('embed-session-key');
  if (!stored && !claims.key) throw new Error('no embed session key yet: mint a session first');
  const key = claims.key ?? new Uint8Array(Buffer.from(stored ?? '', 'base64url'));
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ wsp: claims.workspaceId, scp: 'template:read template:write' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(`embed:${claims.embedId}`)
    .setSubject(claims.userId ?? '')
    .setIssuedAt(now - 7200)
    .setExpirationTime(now + (claims.expiresInSeconds ?? 3600))
    .sign(key);
}

export const randomKey = () => new Uint8Array(randomBytes(32));

/** The token with one character of its payload changed (the signature no longer matches). */
export function tamper(token: string): string {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) throw new Error('not a JWT');
  const i = Math.floor(payload.length / 2);
  const flipped = payload[i] === 'A' ? 'B' : 'A';
  return `${header}.${payload.slice(0, i)}${flipped}${payload.slice(i + 1)}.${signature}`;
}

/** An image element naming `src`, for documents that reference assets. */
export function documentWithImage(src: string) {
  const doc = simpleDocument();
  doc.pages[0]?.elements.push({
    id: 'img',
    type: 'image',
    name: 'photo',
    x: 0,
    y: 0,
    width: 50,
    height: 50,
    src,
  } as never);
  return doc;
}

/** One row per session route: its name, status, error code and `details.requiredScope` (or null). */
export type SweepRow = [route: string, status: number, code: string | null, requiredScope: string | null];

/** Calls every session route with `headers`. */
export async function sweep(
  server: TestServer,
  ids: { embedId: string; templateId: string },
  headers: Record<string, string>,
): Promise<SweepRow[]> {
  const rows: SweepRow[] = [];
  for (const route of embedRoutes(server)) {
    const res = await callRoute(server, route, ids, headers);
    const error = res.json?.error;
    rows.push([routeName(route), res.status, error?.code ?? null, error?.details?.requiredScope ?? null]);
  }
  return rows;
}

/**
 * What a sweep should give: `failure` on every route (or on those `failure` names), each other route
 * its success status (201 for a create, 200 otherwise). The swept template must have been published.
 */
export function sweepExpect(
  server: TestServer,
  failure:
    | [status: number, code: string]
    | Record<string, [status: number, code: string, scope?: string]> = {},
): SweepRow[] {
  return embedRoutes(server).map((route) => {
    const name = routeName(route);
    const fail = Array.isArray(failure) ? failure : failure[name];
    if (fail) return [name, fail[0], fail[1], fail[2] ?? null];
    // A publish of a draft published already answers that version, 200 (the sweeps publish first).
    const created = route.method === 'POST' && !/\/(render|rollback|versions|preflight)$/.test(route.url);
    return [name, created ? 201 : 200, null, null];
  });
}
