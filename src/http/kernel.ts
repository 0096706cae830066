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
import { AppError } from '../core/errors.ts';
import { randomBase62 } from '../core/ids.ts';
import { apiReferenceRoutes } from './api-reference.ts';
import { installAuth, type RegisteredRoute } from './auth-hook.ts';
import { answerClientError } from './client-errors.ts';
import type { Feature } from './context.ts';
import { sendError } from './error-handler.ts';
import { healthRoutes, type ReadinessChecks } from './health-routes.ts';
import { openApiDocument, transformDocument, transformRoute } from './openapi.ts';

export interface KernelOptions {
  logger: Logger;
  baseUrl: string;
  maxBodyBytes: number;
  authenticators: Authenticators;
  readiness: ReadinessChecks;
  features: readonly Feature[];
  /** Traces each request (optional OpenTelemetry): it runs the request and learns its route. */
  tracer?: RequestTracer;
  /** Told of every answered request (metrics): the route's pattern, never the raw URL. */
  onResponse?: (observation: { method: string; route: string; statusCode: number; seconds: number }) => void;
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
    return503OnClosing: true,
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
  // JSON in, JSON out: any other body type is 415, except where a route adds a parser (assets).
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error));
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new AppError('NOT_FOUND', 'No such route.')),
  );
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
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

  // CORS before authentication, so a browser reads error answers (401) and preflights pass.
  await app.register(cors, { delegator: corsFor(options.features) });
  const tags = options.features.flatMap((feature) => (feature.openApiTag ? [feature.openApiTag] : []));
  await app.register(swagger, {
    openapi: openApiDocument(options.baseUrl, tags),
    transform: transformRoute,
    transformObject: transformDocument,
  });

  const routes: RegisteredRoute[] = [];
  installAuth(app, options.authenticators, routes);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await apiReferenceRoutes(app);
  await healthRoutes(app, options.readiness);
  for (const feature of options.features) await app.register(async (scope) => feature.routes(scope));
  return { app, routes };
}

function tracedServer(tracer: RequestTracer) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
    createServer((request, response) => tracer.run(request, response, () => handler(request, response)));
}

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

/** CORS per request: only on the paths a feature opens to browsers; elsewhere none at all. */
function corsFor(features: readonly Feature[]) {
  const open = features.flatMap((f) => (f.corsPaths ? [f.corsPaths] : []));
  return (request: { url?: string }, callback: (error: Error | null, options: object) => void) => {
    const url = (request.url ?? '').split('?')[0] ?? '';
    callback(null, open.some((allowed) => allowed(url)) ? CORS_ALLOWED : { origin: false });
  };
}
