/**
 * The one error catalogue: every error code the service answers with, its HTTP status, and the
 * single error class. The feature services, the authenticators and the routes throw AppError; the
 * store and the pure core (design, layout) return results or nulls and never throw it; the HTTP
 * kernel's one error handler turns AppError (and anything unexpected) into a response.
 */

export const codeToStatus = {
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  INVALID_SESSION: 401,
  INSUFFICIENT_CREDITS: 402,
  INVALID_API_KEY: 403,
  INVALID_SIGNATURE: 403,
  URL_EXPIRED: 403,
  RENDER_CAP_REACHED: 403,
  SUBSCRIPTION_SUSPENDED: 403,
  WORKSPACE_MISMATCH: 403,
  INSUFFICIENT_SCOPE: 403,
  EMBED_DISABLED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  RENDER_FAILED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  OVERLOADED: 503,
} as const;

export type ErrorCode = keyof typeof codeToStatus;

const defaultMessages: Record<ErrorCode, string> = {
  INVALID_JSON: 'The request body is not valid JSON.',
  VALIDATION_FAILED: 'The request is not valid.',
  UNAUTHORIZED: 'A valid operator token is required.',
  INVALID_SESSION: 'The embed session token is missing, invalid or expired.',
  INSUFFICIENT_CREDITS: 'The workspace does not have enough credits for this render.',
  INVALID_API_KEY: 'The API key is missing or invalid.',
  INVALID_SIGNATURE: 'The URL signature is missing or does not match.',
  URL_EXPIRED: 'The signed URL has expired.',
  RENDER_CAP_REACHED: 'The URL-signing secret has reached its render cap.',
  SUBSCRIPTION_SUSPENDED: 'The workspace subscription is suspended.',
  WORKSPACE_MISMATCH: 'The API key belongs to another workspace.',
  INSUFFICIENT_SCOPE: 'The credential lacks the scope this request needs.',
  EMBED_DISABLED: 'This embed is disabled.',
  FORBIDDEN: 'This action is not allowed on that resource.',
  NOT_FOUND: 'The resource was not found.',
  METHOD_NOT_ALLOWED: 'The method is not allowed on this route.',
  CONFLICT: 'The request conflicts with the current state.',
  PRECONDITION_FAILED: 'The resource has changed since the given revision.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'The content type is not supported.',
  EXPECTATION_FAILED: 'The Expect header names an expectation the service cannot meet (only 100-continue).',
  RENDER_FAILED: 'The render failed.',
  RATE_LIMITED: 'Too many requests; retry later.',
  INTERNAL: 'An internal error occurred.',
  OVERLOADED: 'The service is busy; retry later.',
};

export interface ValidationIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, details?: unknown, headers: Record<string, string> = {}) {
    super(message ?? defaultMessages[code]);
    this.name = 'AppError';
    this.code = code;
    this.status = codeToStatus[code];
    this.details = details;
    this.headers = headers;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

export function validationFailed(issues: ValidationIssue[], message?: string): AppError {
  return new AppError('VALIDATION_FAILED', message, issues);
}

export function notFound(what = 'resource'): AppError {
  return new AppError('NOT_FOUND', `The ${what} was not found.`);
}

/** Dotted path for a zod issue path, e.g. `pages[0].elements[2].x` (root is `(root)`). */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(root)';
}
