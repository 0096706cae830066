/**
 * One typed HTTP client per credential: openapi-fetch over the generated `paths`, with the
 * credential on every request, network failures turned into `PlatenConnectionError`, and `call()`
 * turning any non-2xx answer into a `PlatenError` with the API's code. Every helper goes through it.
 */
import createClient, { type Client } from 'openapi-fetch';
import { PlatenConnectionError, PlatenError } from './errors.ts';
import type { paths } from './openapi.ts';

export interface TransportOptions {
  /** The service's base URL, e.g. `https://platen.example.com` (no `/v1`). */
  baseUrl: string;
  /** A `fetch` to use instead of the global one (tests, proxies, retries). */
  fetch?: typeof globalThis.fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

export type ApiClient = Client<paths>;

export function createTransport(options: TransportOptions, authorization: Record<string, string>): ApiClient {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`baseUrl must be http(s), got ${base.protocol}`);
  }
  const baseFetch = options.fetch ?? globalThis.fetch;
  return createClient<paths>({
    baseUrl: base.href.replace(/\/+$/, ''),
    headers: { ...options.headers, ...authorization },
    fetch: async (request: Request) => {
      try {
        return await baseFetch(request);
      } catch (cause) {
        // A caller's own abort is theirs to handle, not a failure to reach the service.
        if (request.signal.aborted) throw cause;
        throw new PlatenConnectionError(request.url, cause);
      }
    },
  });
}

/** The data of a successful answer; a `PlatenError` for any other. */
export async function call<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw await PlatenError.fromResponse(response, error);
  return data as T;
}
