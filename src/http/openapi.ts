/** Shared OpenAPI pieces: the error envelope every route may answer with. */
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
