/** `POST /v1/templates/:id/render` and `GET /v1/renders/:id` for API keys. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Actor, requirePrincipal } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import { type RateLimiter, rateLimitHeaders } from '../ratelimit/index.ts';
import type { BackgroundRenders } from './background.ts';
import { PREVIEW_BOX } from './preview.ts';
import {
  creditEstimateSchema,
  estimateRequestSchema,
  previewRequestSchema,
  renderJobSchema,
  renderRequestSchema,
  renderResponseSchema,
  renderResultSchema,
} from './schemas.ts';
import type { RenderService } from './service.ts';

export const rendersTag: OpenApiTag = {
  name: 'renders',
  description:
    'Rendering a template to PNG, JPEG or PDF, or to a video (MP4, WebM, GIF): one credit per file ' +
    '(a video is one file, however many pages it plays); an identical repeat is free. ' +
    'Render responses carry `RateLimit-*` headers.',
};
const tag = rendersTag;
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

/** Every render field is optional, so an empty JSON body means every default, as no body does. */
export function acceptEmptyRenderBody(scope: FastifyInstance): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, { format: 'png' });
    return parseJson(request, text, done);
  });
}

/** Whose render bucket a request takes from: the API key, the embed end-user, the OAuth grant, or the URL-signing secret. */
export function rateLimitKeyOf(actor: Actor): string {
  if (actor.type === 'api_key') return `key:${actor.id}`;
  if (actor.type === 'embed_session') return `embed:${actor.embedId}:${actor.userId ?? '-'}`;
  if (actor.type === 'signed_url') return `url:${actor.secretId}`;
  if (actor.type === 'person') return `person:${actor.userId}`;
  if (actor.type === 'oauth') return `oauth:${actor.clientId}:${actor.userId}`;
  // The operator's and the service's own principals render nothing; one bucket if they ever do.
  return actor.type;
}

/** The render rate limit, per API key or per embed session's end-user. */
export function perCallerRateLimit(limiter: RateLimiter | null) {
  return rateLimitHook(limiter, (request) => rateLimitKeyOf(requirePrincipal(request.principal).actor));
}

export function renderRoutes(
  service: RenderService,
  background: BackgroundRenders,
  limiter: RateLimiter | null,
) {
  return async function register(root: FastifyInstance): Promise<void> {
    acceptEmptyRenderBody(root);
    const app = root.withTypeProvider<ZodTypeProvider>();
    const perKey = perCallerRateLimit(limiter);

    app.post(
      '/v1/templates/:id/render',
      {
        config: { auth: 'apiKey', scope: 'render:write' },
        onRequest: perKey,
        // No body at all means every default (`curl -X POST …/render` just works).
        preValidation: async (request) => {
          request.body ??= { format: 'png' };
        },
        schema: operation({
          id: 'renderTemplate',
          summary: "Render a template's draft to PNG, JPEG, PDF, MP4, WebM or GIF",
          description:
            'One credit per file. A request identical to an earlier one (same draft, modifications, ' +
            '`idempotencyKey`, format, pages and options) answers the earlier result with ' +
            '`credits.charged: 0`. Every field is optional (no body: a PNG of the active page). With ' +
            '`async: true` it answers 202 at once and renders in the background. A video (`mp4`, ' +
            '`webm`, `gif`) is one file of the selected page, or with `allPages` of every page as ' +
            'scenes, and its result adds `durationMs` and `frames`; a video too long to render while ' +
            'the request waits answers 400 asking for `async: true`.',
          tag,
          params: idParams,
          body: renderRequestSchema,
          bodyRequired: false,
          response: { 200: renderResponseSchema, 202: renderJobSchema },
          errors: [400, 402, 403, 404, 413, 415, 422, 429, 503],
        }),
      },
      async (request, reply) => {
        const principal = requirePrincipal(request.principal);
        if (!request.body.async) return service.render(principal, request.params.id, request.body);
        return reply.status(202).send(await background.accept(principal, request.params.id, request.body));
      },
    );

    app.post(
      '/v1/templates/:id/estimate',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        preValidation: async (request) => {
          request.body ??= { format: 'png' };
        },
        schema: operation({
          id: 'estimateCredits',
          summary: 'Estimate the credits of a render or of rows of renders, charging nothing',
          description:
            'Takes what the render route takes (without `async`), or `rows` of modifications as a ' +
            'batch does, and answers the files and credits they would take now: an identical render ' +
            'already done, or an identical earlier row, is free. With the balance and whether it pays.',
          tag,
          params: idParams,
          body: estimateRequestSchema,
          bodyRequired: false,
          response: { 200: creditEstimateSchema },
          errors: [400, 403, 404, 413, 415],
        }),
      },
      async (request) => {
        const { rows, modifications, ...rest } = request.body;
        return service.estimate(
          requirePrincipal(request.principal),
          request.params.id,
          rest,
          rows ?? [modifications ?? {}],
        );
      },
    );

    app.post(
      '/v1/templates/:id/preview',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        onRequest: perKey,
        preValidation: async (request) => {
          request.body ??= { format: 'png' };
        },
        schema: operation({
          id: 'previewTemplate',
          summary: 'A free, small, watermarked preview of a page',
          description:
            `One page with the modifications applied, at most ${PREVIEW_BOX} px on its longest side, ` +
            'with a PREVIEW watermark, as PNG or JPEG. Free: nothing is charged or stored. It takes ' +
            'a token of the render rate limit, and is bounded like a render.',
          tag,
          params: idParams,
          body: previewRequestSchema,
          bodyRequired: false,
          rawResponse: {
            'image/png': { schema: { type: 'string', format: 'binary' } },
            'image/jpeg': { schema: { type: 'string', format: 'binary' } },
          },
          response: {},
          errors: [400, 403, 404, 413, 415, 422, 429, 503],
        }),
      },
      async (request, reply) => {
        const preview = await service.preview(
          requirePrincipal(request.principal),
          request.params.id,
          request.body,
        );
        const bytes: FastifyReply = reply;
        return bytes
          .header('content-type', preview.mimeType)
          .header('cache-control', 'private, no-store')
          .header('x-preview-width', String(preview.width))
          .header('x-preview-height', String(preview.height))
          .send(preview.bytes);
      },
    );

    app.get(
      '/v1/renders/:id',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'getRender',
          summary: 'Get a render result, or the state of a background render',
          description:
            'The result as first returned, with `credits.charged: 0`; `url: null, expired: true` once ' +
            'retention has removed the file. A background render not done yet answers its state ' +
            '(`status: pending`, or `failed` with the `error`).',
          tag,
          params: idParams,
          response: { 200: z.union([renderResultSchema, renderJobSchema]) },
          errors: [403, 404],
        }),
      },
      async (request) => background.lookup(requirePrincipal(request.principal), request.params.id),
    );
  };
}
