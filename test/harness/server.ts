/**
 * A real Platen app on 127.0.0.1 with a real database and real files, for HTTP tests. Also
 * helpers for the operator API and authenticated requests.
 */
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { SCOPES } from '../../src/auth/scopes.ts';
import { type Config, loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import type { FileStore } from '../../src/files/index.ts';
import type { RegisteredRoute } from '../../src/http/auth-hook.ts';
import type { Services } from '../../src/services.ts';
import { startPlaten } from '../../src/start.ts';
import type { Store } from '../../src/store/index.ts';
import { type BackendName, testDatabase } from './backends.ts';
import { freePort } from './ports.ts';

export { freePort };

/** What a test server gives renders and webhook attempts still in flight at teardown. */
const TEARDOWN_GRACE_MS = 5_000;

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const ALL_SCOPES = SCOPES;

export interface TestServer {
  base: string;
  app: FastifyInstance;
  routes: RegisteredRoute[];
  store: Store;
  files: FileStore;
  config: Config;
  services: Services;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Capture the service's log: each JSON line is pushed here, at `logLevel` (default `info`). */
  logTo?: string[];
  logLevel?: 'info' | 'warn';
}

export async function startTestServer(
  backend: BackendName = 'sqlite',
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const database = testDatabase(backend);
  const config = loadConfig({
    PLATEN_DATA_DIR: database.dataDir,
    PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
    PLATEN_LOG_LEVEL: 'silent',
    PLATEN_RENDER_RATE_LIMIT: '0',
    PLATEN_ALLOW_PRIVATE_URLS: 'true',
    PLATEN_BASE_URL: base,
    PORT: String(port),
    PLATEN_HOST: '127.0.0.1',
    // A test makes its own workspaces; set it to 'true' to test the bootstrap.
    PLATEN_BOOTSTRAP: 'false',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...env,
  });
  const { logTo } = options;
  const logger = logTo
    ? createLogger(options.logLevel ?? 'info', {
        write: (chunk: string) => void logTo.push(...chunk.split('\n').filter(Boolean)),
      })
    : createLogger('silent');
  // What `npm start` runs (src/start.ts): services, app, background work and periodic upkeep alike.
  const platen = await startPlaten(config, logger, {
    database: { pgSchema: database.pgSchema },
    print: () => {},
  }).catch(async (error: unknown) => {
    await database.destroy();
    throw error;
  });
  const { app, routes, services } = platen;
  const { store, files } = services;
  return {
    base,
    app,
    routes,
    store,
    files,
    config,
    services,
    async close() {
      // The production stop, with the background work's default grace. Nothing is in flight at
      // teardown, so connections are cut at once rather than at the end of the grace: a keep-alive
      // socket Node does not count as idle (seen after streamed file answers) must not hold it.
      const stopping = platen.stop(TEARDOWN_GRACE_MS);
      app.server.closeAllConnections();
      await stopping;
      await database.destroy();
    },
  };
}

export interface HttpResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  json: any;
  bytes: Buffer;
}

export async function http(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; raw?: string | Uint8Array; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.raw !== undefined)
    body = typeof options.raw === 'string' ? options.raw : Buffer.from(options.raw);
  else if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(base + path, {
    method,
    headers,
    body: body as BodyInit | undefined,
    redirect: 'manual',
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, bytes };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function admin(base: string, method: string, path: string, body?: unknown): Promise<HttpResult> {
  return http(base, method, `/admin/v1${path}`, { body, headers: bearer(ADMIN_TOKEN) });
}

export interface WorkspaceWithKey {
  workspaceId: string;
  key: string;
  keyId: string;
}

export async function workspaceWithKey(
  base: string,
  options: { credits?: number; scopes?: readonly string[]; name?: string } = {},
): Promise<WorkspaceWithKey> {
  const ws = await admin(base, 'POST', '/workspaces', {
    name: options.name ?? 'test',
    credits: options.credits ?? 100,
  });
  if (ws.status !== 201) throw new Error(`workspace: ${ws.status} ${ws.bytes.toString()}`);
  const key = await keyFor(base, ws.json.id, options.scopes ?? ALL_SCOPES);
  return { workspaceId: ws.json.id, key: key.key, keyId: key.id };
}

export async function keyFor(
  base: string,
  workspaceId: string,
  scopes: readonly string[],
): Promise<{ key: string; id: string }> {
  const k = await admin(base, 'POST', `/workspaces/${workspaceId}/api-keys`, { name: 'k', scopes });
  if (k.status !== 201) throw new Error(`key: ${k.status} ${k.bytes.toString()}`);
  return { key: k.json.key, id: k.json.id };
}

/** A stand-in for a host on the internet, on loopback (tests run with PLATEN_ALLOW_PRIVATE_URLS). */
export async function startOrigin(
  handler: RequestListener,
): Promise<{ base: string; close(): Promise<void> }> {
  const server = createHttpServer(handler);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
