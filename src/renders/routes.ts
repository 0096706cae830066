/** `POST /v1/templates/:id/render` and `GET /v1/renders/:id` for API keys. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { errorResponses } from '../http/openapi.ts';
import { type RateLimiter, rateLimitHeaders } from '../ratelimit/index.ts';
import { renderRequestSchema, renderResponseSchema, renderResultSchema } from './schemas.ts';
import type { RenderService } from './service.ts';

const tags = ['renders'];
const security = [{ apiKey: [] }];
const idParams = z.object({ id: z.string().max(200) });

/** An onRequest hook (after authentication) that spends one token of the caller's bucket. */
export function rateLimitHook(limiter: RateLimiter | null, keyOf: (request: FastifyRequest) => string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!limiter) return;
    const decision = await limiter.take(keyOf(request));
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed)
      throw new AppError(
        'RATE_LIMITED',
        undefined,
        { retryAfterSeconds: decision.retryAfterSeconds },
        headers,
      );
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  };
}

export function renderRoutes(service: RenderService, limiter: RateLimiter | null) {
  return async function register(root: FastifyInstance): Promise<void> {
    // Every render field is optional, so an empty JSON body means every default, as no body does.
    const parseJson = root.getDefaultJsonParser('error', 'error');
    root.removeContentTypeParser('application/json');
    root.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body.toString();
      if (text.trim() === '') return done(null, { format: 'png' });
      return parseJson(request, text, done);
    });
    const app = root.withTypeProvider<ZodTypeProvider>();
    const perKey = rateLimitHook(limiter, (request) => {
      const actor = requirePrincipal(request.principal).actor;
      return actor.type === 'api_key' ? `key:${actor.id}` : `actor:${JSON.stringify(actor)}`;
    });

    app.post(
      '/v1/templates/:id/render',
      {
        config: { auth: 'apiKey', scope: 'render:write' },
        onRequest: perKey,
        // No body at all means every default (`curl -X POST …/render` just works).
        preValidation: async (request) => {
          request.body ??= { format: 'png' };
        },
        schema: {
          tags,
          security,
          description:
            'Render the current draft to PNG, JPEG or PDF. One credit per file; an identical repeat is free.',
          params: idParams,
          body: renderRequestSchema,
          response: { 200: renderResponseSchema, ...errorResponses },
        },
      },
      async (request) => service.render(requirePrincipal(request.principal), request.params.id, request.body),
    );

    app.get(
      '/v1/renders/:id',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: {
          tags,
          security,
          params: idParams,
          response: { 200: renderResultSchema, ...errorResponses },
        },
      },
      async (request) => service.get(requirePrincipal(request.principal), request.params.id),
    );
  };
}
