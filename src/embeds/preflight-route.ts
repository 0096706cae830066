/**
 * The studio's live warnings (docs/preflight.md): preflight of a template through an embed
 * session, one call to the same PreflightService the machine API uses, with the session's
 * principal (its confinement and the embed's published-only rule come with it).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import { type PreflightService, preflightReportSchema, preflightRequestSchema } from '../preflight/index.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { perCallerRateLimit } from '../renders/index.ts';
import { embedTemplateParams } from './schemas.ts';

export interface EmbedPreflightServices {
  preflight: PreflightService;
  limiter: RateLimiter | null;
}

export async function embedPreflightRoute(
  root: FastifyInstance,
  { preflight, limiter }: EmbedPreflightServices,
  tag: OpenApiTag,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/v1/embed/:embedId/templates/:templateId/preflight',
    {
      config: { auth: 'embedSession', scope: 'template:read' },
      onRequest: perCallerRateLimit(limiter),
      preValidation: async (request) => {
        request.body ??= { format: 'png' };
      },
      schema: operation({
        id: 'preflightEmbedTemplate',
        summary: "Check what a render of a session's template would get wrong (the studio's warnings)",
        description:
          'As `POST /v1/templates/{id}/preflight`: findings with the element, a severity and a ' +
          'message; free, bounded like a render, and counted against the render rate limit.',
        tag,
        params: embedTemplateParams,
        body: preflightRequestSchema,
        bodyRequired: false,
        response: { 200: preflightReportSchema },
        errors: [400, 401, 403, 404, 413, 415, 422, 429, 503],
      }),
    },
    async (request) =>
      preflight.preflight(requirePrincipal(request.principal), request.params.templateId, request.body),
  );
}
