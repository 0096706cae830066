/**
 * The one error handler: every failure leaves as the contract's envelope
 * `{error: {code, message, requestId, details?}}`. Unknown errors become a logged 500 INTERNAL with
 * a generic message (no stack, no internals).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorCode, type ValidationIssue } from '../core/errors.ts';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; requestId: string; details?: unknown };
}

export function errorBody(error: AppError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      requestId,
      ...(error.details !== undefined ? { details: error.details } : {}),
    },
  };
}

/** `/pages/0/x` → `pages[0].x`, prefixed with where it came from when not the body. */
function issuePath(instancePath: string, context: string | undefined): string {
  const parts = instancePath.split('/').filter(Boolean);
  let out = '';
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  const prefix = context && context !== 'body' ? context : '';
  if (prefix) return out ? `${prefix}.${out}` : prefix;
  return out || '(root)';
}

const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
  FST_REQ_FILE_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_PARTS_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_FILES_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  // A path that cannot be decoded, or an over-long id, names nothing: not found.
  FST_ERR_BAD_URL: 'NOT_FOUND',
  FST_ERR_MAX_PARAM_LENGTH: 'NOT_FOUND',
};

/** Maps anything thrown to an AppError; the second value says whether it was unexpected. */
export function toAppError(error: unknown): { appError: AppError; unexpected: boolean } {
  if (error instanceof AppError) return { appError: error, unexpected: false };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as { validationContext?: string }).validationContext;
    const issues: ValidationIssue[] = error.validation.map((v) => ({
      path: issuePath(v.instancePath, context),
      message: v.message ?? 'Invalid value',
    }));
    return { appError: new AppError('VALIDATION_FAILED', undefined, issues), unexpected: false };
  }
  const fastifyError = error as Partial<FastifyError> & { validation?: unknown };
  const mapped = fastifyError.code ? fastifyCodes[fastifyError.code] : undefined;
  if (mapped) return { appError: new AppError(mapped), unexpected: false };
  if (fastifyError.validation) {
    return { appError: new AppError('VALIDATION_FAILED', fastifyError.message), unexpected: false };
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 413) return { appError: new AppError('PAYLOAD_TOO_LARGE'), unexpected: false };
  if (status === 415) return { appError: new AppError('UNSUPPORTED_MEDIA_TYPE'), unexpected: false };
  if (status >= 400 && status < 500) {
    return {
      appError: new AppError('VALIDATION_FAILED', 'The request could not be read.'),
      unexpected: false,
    };
  }
  return { appError: new AppError('INTERNAL'), unexpected: true };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const { appError, unexpected } = toAppError(error);
  if (unexpected) request.log.error({ err: error }, 'unexpected error');
  else if (appError.status >= 500) request.log.warn({ code: appError.code }, appError.message);
  for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value);
  // Set here too, not only by the kernel's onSend hook: errors the router raises before any route
  // (a path that cannot be decoded, an over-long parameter) answer without the route's hooks.
  reply.header('x-request-id', String(request.id));
  return reply.status(appError.status).send(errorBody(appError, String(request.id)));
}
