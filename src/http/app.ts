/**
 * Assembles the HTTP application: zod schemas for validation and OpenAPI, request ids, the one
 * error handler, authentication, and every feature's routes.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { adminRoutes } from '../admin/routes.ts';
import { assetRoutes } from '../assets/routes.ts';
import { AppError } from '../core/errors.ts';
import { randomBase62 } from '../core/ids.ts';
import { renderRoutes } from '../renders/routes.ts';
import { templateRoutes } from '../templates/routes.ts';
import { installAuth, type RegisteredRoute } from './auth-hook.ts';
import { answerClientError } from './client-errors.ts';
import type { AppDeps } from './context.ts';
import { sendError } from './error-handler.ts';
import { fileRoutes } from './file-routes.ts';
import { healthRoutes } from './health-routes.ts';

export interface BuiltApp {
  app: FastifyInstance;
  routes: RegisteredRoute[];
}

export async function buildApp(deps: AppDeps, logger: Logger): Promise<BuiltApp> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: deps.config.PLATEN_MAX_BODY_BYTES,
    genReqId: () => `req_${randomBase62(16)}`,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Errors the router raises before any route runs get the same envelope as the rest.
    frameworkErrors: (error, request, reply) => sendError(request, reply, error),
    // And so do requests Node's HTTP parser refuses before Fastify sees them.
    clientErrorHandler: answerClientError,
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

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Platen API',
        version: '1.0.0',
        description: 'Template rendering: design templates rendered to PNG, JPEG and PDF.',
      },
      servers: [{ url: deps.config.baseUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'API key (plt_…); X-Api-Key also accepted' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'PLATEN_ADMIN_TOKEN' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const routes: RegisteredRoute[] = [];
  installAuth(app, deps, routes);

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(healthRoutes(deps));
  await app.register(fileRoutes(deps));
  await app.register(templateRoutes(deps));
  await app.register(assetRoutes(deps));
  await app.register(renderRoutes(deps.renders, deps.limiter));
  await app.register(adminRoutes(deps));
  return { app, routes };
}
