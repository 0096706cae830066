/** `POST /v1/templates/:id/preflight`: one call to the PreflightService with the request's principal. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../auth/index.ts';
import { operation } from '../http/openapi.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { perCallerRateLimit } from '../renders/index.ts';
import { templatesTag as tag } from '../templates/index.ts';
import { MAX_PREFLIGHT_ROWS, preflightReportSchema, preflightRequestSchema } from './schemas.ts';
import type { PreflightService } from './service.ts';

const idParams = z.object({ id: z.string().max(200) });

/** `limiter`: the render rate limit; a preflight is bounded like a render and takes one token. */
export function preflightRoutes(service: PreflightService, limiter: RateLimiter | null) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/v1/templates/:id/preflight',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        onRequest: perCallerRateLimit(limiter),
        preValidation: async (request) => {
          request.body ??= { format: 'png' };
        },
        schema: operation({
          id: 'preflightTemplate',
          summary: 'Check what a render would get wrong, free',
          description:
            'Checks the template (a pinned version, or the draft) with `modifications`, or each of up ' +
            `to ${MAX_PREFLIGHT_ROWS} sample \`rows\`, as the chosen format would draw it: characters no ` +
            'font covers, text that overflows or that auto-fit would shrink below `minFontSize`, text ' +
            'cut by `maxLines`, images too small for the output, text contrast below WCAG AA, images ' +
            'that fail to load, and elements beyond the page. Free, and bounded like a render: rows ' +
            'not checked within the render time limit are left (`complete: false`). Takes a token of ' +
            'the render rate limit.',
          tag,
          params: idParams,
          body: preflightRequestSchema,
          bodyRequired: false,
          response: { 200: preflightReportSchema },
          errors: [400, 403, 404, 413, 415, 422, 429, 503],
        }),
      },
      async (request) =>
        service.preflight(requirePrincipal(request.principal), request.params.id, request.body),
    );
  };
}
