/** Shared OpenAPI pieces: the document's header, and the error envelope every route may answer with. */
import { z } from 'zod';
import { codeToStatus } from '../core/errors.ts';

export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(codeToStatus) as [keyof typeof codeToStatus, ...(keyof typeof codeToStatus)[]]),
    message: z.string(),
    requestId: z.string(),
    details: z.unknown().optional(),
  }),
});

/** Response schemas for the usual error statuses of a protected route. */
export const errorResponses = {
  400: errorEnvelopeSchema,
  402: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  412: errorEnvelopeSchema,
  413: errorEnvelopeSchema,
  415: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
  500: errorEnvelopeSchema,
  503: errorEnvelopeSchema,
} as const;

/** The OpenAPI document's fixed part; the routes add their operations. */
export function openApiDocument(baseUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Platen API',
      version: '1.0.0',
      description: 'Template rendering: design templates rendered to PNG, JPEG and PDF.',
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http' as const,
          scheme: 'bearer',
          description: 'API key (plt_…); X-Api-Key also accepted',
        },
        adminToken: { type: 'http' as const, scheme: 'bearer', description: 'PLATEN_ADMIN_TOKEN' },
      },
    },
  };
}
