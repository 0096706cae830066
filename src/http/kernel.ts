/**
 * The HTTP kernel: Fastify with zod validation and OpenAPI, request ids, the one error handler
 * (router, parser and route errors alike), authentication by the authenticator each route
 * declares, health checks, the document at `/openapi.json` and its reference page at `/docs`; then
 * the features it is given. It imports no feature.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Authenticators } from '../auth/index.ts';
import type { TrustProxy } from '../core/config.ts';
import { AppError } from '../core/errors.ts';
import { randomBase62 } from '../core/ids.ts';
import { apiReferenceRoutes } from './api-reference.ts';
import { installAuth, type RegisteredRoute, type SuspensionCheck } from './auth-hook.ts';
import {
  answerClientError,
  answerConnect,
  answerExpectation,
  refuseUnroutedMethods,
} from './client-errors.ts';
import type { Feature } from './context.ts';
import { sendError } from './error-handler.ts';
import { healthRoutes, type ReadinessChecks } from './health-routes.ts';
import { installNulGuard } from './nul-guard.ts';
import { openApiDocument, transformDocument, transformRoute } from './openapi.ts';

export interface KernelOptions {
  logger: Logger;
  baseUrl: string;
  maxBodyBytes: number;
  authenticators: Authenticators;
  /** The suspension check the authentication step makes for every credential (auth-hook.ts). */
  workspaceSuspended: SuspensionCheck;
  readiness: ReadinessChecks;
  features: readonly Feature[];
  /** Traces each request (optional OpenTelemetry): it runs the request and learns its route. */
  tracer?: RequestTracer;
  /** Told of every answered request (metrics): the route's pattern, never the raw URL. */
  onResponse?: (observation: { method: string; route: string; statusCode: number; seconds: number }) => void;
  /**
   * The peers whose `X-Forwarded-For` is believed for `request.ip` (PLATEN_TRUST_PROXY): addresses
   * and CIDRs, or a hop count; none by default, so `request.ip` is the TCP peer.
   */
  trustProxy?: TrustProxy;
}

/** A request tracer: `run` wraps the whole handling of a request; `routed` names it once answered. */
export interface RequestTracer {
  run(request: IncomingMessage, response: ServerResponse, handle: () => void): void;
  routed(request: IncomingMessage, route: string, statusCode: number): void;
}

export interface Kernel {
  app: FastifyInstance;
  /** Every route with how it authenticates (the shared security suite walks this list). */
  routes: RegisteredRoute[];
}

export async function buildKernel(options: KernelOptions): Promise<Kernel> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.maxBodyBytes,
    genReqId: () => `req_${randomBase62(16)}`,
    trustProxy: trustProxyOption(options.trustProxy),
    // Requests that reach a closing server are answered below, with the envelope.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Errors the router raises before any route runs get the same envelope as the rest,
    frameworkErrors: (error, request, reply) => sendError(request, reply, error),
    // and so do requests Node's HTTP parser refuses before Fastify sees them.
    clientErrorHandler: answerClientError,
    // With a tracer, the server hands each request to it first, so all the request's work runs
    // inside its span's context. Without one, Fastify creates its server as usual.
    ...(options.tracer ? { serverFactory: tracedServer(options.tracer) } : {}),
  });
  // What Node answers itself before Fastify sees a request gets the envelope too: an Expect it
  // cannot meet (Node's bare 417) and CONNECT (Node's closed socket).
  app.server.on('checkExpectation', answerExpectation);
  app.server.on('connect', answerConnect);
  refuseUnroutedMethods(app.server);
  // JSON in, JSON out: any other body type is 415, except where a route adds a parser (assets).
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error));
  app.setNotFoundHandler(NOT_FOUND_ROUTE, (request, reply) =>
    sendError(request, reply, new AppError('NOT_FOUND', 'No such route.')),
  );
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  refuseWhileClosing(app);
  installNulGuard(app);
  const { onResponse: observe, tracer } = options;
  if (observe || tracer) {
    app.addHook('onResponse', (request, reply, done) => {
      // Unmatched URLs share one label, so a scan of random paths cannot grow the series.
      const route = request.routeOptions.url ?? 'unmatched';
      tracer?.routed(request.raw, route, reply.statusCode);
      observe?.({
        method: request.method,
        route,
        statusCode: reply.statusCode,
        seconds: reply.elapsedTime / 1000,
      });
      done();
    });
  }

  // CORS before authentication, so a browser reads error answers (401) and preflights pass. Which
  // routes answer CORS is decided once, as each registers: a route on a path some feature opens to
  // browsers does; every other carries `cors: false`, the first thing the plugin checks (a
  // per-request delegator made the plugin normalise its options for every request: 5 % of a
  // replay's instructions, docs/performance.md). A URL no route serves has no CORS either.
  const corsOpen = corsPathsOf(options.features);
  // Added before any route registers: a route this hook missed would answer CORS.
  app.addHook('onRoute', (route) => {
    if (route.method !== 'OPTIONS' && !corsOpen(route.url)) route.config = { ...route.config, cors: false };
  });
  // Every preflight reaches the plugin's one OPTIONS route (no feature declares OPTIONS routes), so
  // it is decided here by path: on an open path it needs a preflight's headers (the envelope, where
  // the plugin would answer 400 in plain text); on any other path it is an unknown route.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method !== 'OPTIONS') return done();
    if (!corsOpen(request.url)) return done(new AppError('NOT_FOUND', 'No such route.'));
    if (!request.headers.origin || !request.headers['access-control-request-method'])
      return done(
        new AppError(
          'VALIDATION_FAILED',
          'A CORS preflight needs the Origin and Access-Control-Request-Method headers.',
        ),
      );
    done();
  });
  await app.register(cors, CORS_ALLOWED);
  const tags = options.features.flatMap((feature) => (feature.openApiTag ? [feature.openApiTag] : []));
  await app.register(swagger, {
    openapi: openApiDocument(options.baseUrl, tags),
    transform: transformRoute,
    transformObject: transformDocument,
  });

  const routes: RegisteredRoute[] = [];
  installAuth(app, options.authenticators, routes, options.workspaceSuspended);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await apiReferenceRoutes(app);
  await healthRoutes(app, options.readiness);
  for (const feature of options.features) await app.register(async (scope) => feature.routes(scope));
  return { app, routes };
}

/** Fastify's `trustProxy`: a hop count as the function proxy-addr makes of one (its types take none). */
function trustProxyOption(trust: TrustProxy | undefined) {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust || false;
}

function tracedServer(tracer: RequestTracer) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
    createServer((request, response) => tracer.run(request, response, () => handler(request, response)));
}

/** Fastify takes a config for its not-found route as for any other (its types do not say so). */
const NOT_FOUND_ROUTE = { config: { cors: false } } as Parameters<FastifyInstance['setNotFoundHandler']>[0];

const CORS_ALLOWED = {
  origin: '*',
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  // The MCP headers let browser-based MCP clients through where a feature opens its path.
  allowedHeaders: ['authorization', 'content-type', 'if-match', 'x-request-id', 'mcp-protocol-version'],
  exposedHeaders: [
    'etag',
    'www-authenticate',
    'retry-after',
    'x-request-id',
    'ratelimit-limit',
    'ratelimit-remaining',
    'ratelimit-reset',
    'ratelimit-policy',
  ],
  maxAge: 600,
};

/** Whether a URL is on a path some feature opens to browsers. */
function corsPathsOf(features: readonly Feature[]): (url: string | undefined) => boolean {
  const open = features.flatMap((f) => (f.corsPaths ? [f.corsPaths] : []));
  return (url) => {
    const path = (url ?? '').split('?')[0] ?? '';
    // As the router reads it (ignoreTrailingSlash), so a preflight agrees with its request.
    const routed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    return open.some((allowed) => allowed(routed));
  };
}

/**
 * Once the server is closing (shutdown: docs/deployment.md), a request that still arrives on an
 * open keep-alive connection is answered 503 OVERLOADED with the envelope, `Retry-After` and
 * `Connection: close` (so the client goes to another instance), instead of Fastify's own body.
 */
function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    if (!closing) return done();
    done(
      new AppError('OVERLOADED', 'The service is shutting down; retry on another instance.', undefined, {
        'retry-after': '1',
        connection: 'close',
      }),
    );
  });
}
