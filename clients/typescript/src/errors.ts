/**
 * What a failed call throws. `PlatenError` carries the API's own error (docs/api.md, Errors): its
 * stable `code` (branch on it), the HTTP status, the human `message`, the `requestId` to find it in
 * the service's logs, and `details` where the code has them. `PlatenConnectionError` means no answer
 * came at all: a bad base URL, a refused connection, DNS, a timeout. `PlatenTimeoutError` means a
 * wait for background work (`renderAndWait`, `batches.wait`) gave up before the work settled; the
 * work itself goes on.
 */
import type { components } from './openapi.ts';

/** The body of every error answer: `{error: {code, message, requestId, details?}}`. */
export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = ErrorBody['error']['code'];

export class PlatenError extends Error {
  override readonly name = 'PlatenError';
  constructor(
    readonly status: number,
    /** One of the API's codes; `HTTP_<status>` when the answer was not the API's error body. */
    readonly code: ErrorCode | `HTTP_${number}`,
    message: string,
    readonly requestId: string | null = null,
    readonly details: unknown = undefined,
  ) {
    super(message);
  }

  /** The error an API answer carries, or a generic one when its body is not the API's error shape. */
  static async fromResponse(response: Response, body?: unknown): Promise<PlatenError> {
    let parsed = body;
    if (parsed === undefined) {
      const text = await response.text().catch(() => '');
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const error = (parsed as { error?: unknown } | null)?.error;
    if (error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string') {
      const { code, message, requestId, details } = error as components['schemas']['Error']['error'];
      return new PlatenError(response.status, code, message, requestId ?? null, details);
    }
    // OAuth endpoints answer RFC 6749 errors; anything else (a proxy's HTML page) keeps its status.
    const description =
      typeof error === 'string'
        ? `${error}${(parsed as { error_description?: string }).error_description ? `: ${(parsed as { error_description?: string }).error_description}` : ''}`
        : `${response.status} ${response.statusText || 'error'}`.trim();
    return new PlatenError(
      response.status,
      `HTTP_${response.status}`,
      description,
      response.headers.get('x-request-id'),
    );
  }
}

export class PlatenConnectionError extends Error {
  override readonly name = 'PlatenConnectionError';
  constructor(
    readonly url: string,
    override readonly cause: unknown,
  ) {
    const reason =
      cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
    super(`could not reach ${new URL(url).origin}: ${reason}`);
  }
}

export class PlatenTimeoutError extends Error {
  override readonly name = 'PlatenTimeoutError';
  constructor(
    /** What was awaited, e.g. `render rnd_…`. */
    readonly waitingFor: string,
    readonly timeoutMs: number,
  ) {
    super(`${waitingFor} did not settle within ${timeoutMs} ms`);
  }
}
