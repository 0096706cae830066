/**
 * The one SSRF-guarded outbound fetcher (images now, webhooks later). Every hop is vetted (protocol,
 * DNS answers, private addresses) and pinned to its vetted address; redirects are followed by hand
 * up to maxRedirects; the body is capped at maxBytes; one deadline bounds the whole fetch.
 */
import { type FetchPolicy, FetchRefused } from './policy.ts';
import { type HopRequest, requestOnce } from './request.ts';
import { parseUrl, vetTarget } from './vet.ts';

export interface GuardedResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** The URL that answered, after redirects. */
  finalUrl: string;
}

export interface GuardedFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** Headers that carry the caller's credentials; never forwarded to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** Rejects with a 'timeout' refusal as soon as `signal` aborts (DNS lookups cannot be cancelled). */
function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal, href: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new FetchRefused('timeout', 'The fetch took too long.', href));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function lowerCaseKeys(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** The request for the next hop, as browsers do it: 303 (and 301/302 after POST) become GET. */
function nextHopRequest(current: HopRequest, status: number, sameOrigin: boolean): HopRequest {
  const headers = { ...current.headers };
  if (!sameOrigin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  const toGet = status === 303 || ((status === 301 || status === 302) && current.method === 'POST');
  if (!toGet) return { ...current, headers };
  delete headers['content-type'];
  return { method: current.method === 'HEAD' ? 'HEAD' : 'GET', headers };
}

export async function guardedFetch(
  url: string,
  policy: FetchPolicy,
  init: GuardedFetchInit = {},
): Promise<GuardedResponse> {
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  let current = parseUrl(url);
  let request: HopRequest = {
    method: (init.method ?? 'GET').toUpperCase(),
    headers: lowerCaseKeys(init.headers),
    body: init.body,
  };
  for (let redirects = 0; ; redirects++) {
    const target = await beforeDeadline(vetTarget(current, policy), deadline, current.href);
    const hop = await requestOnce(target, request, policy.maxBytes, deadline);
    if (hop.kind === 'response') {
      return { status: hop.status, headers: hop.headers, bytes: hop.bytes, finalUrl: current.href };
    }
    if (redirects >= policy.maxRedirects) {
      throw new FetchRefused(
        'too-many-redirects',
        `More than ${policy.maxRedirects} redirects.`,
        current.href,
      );
    }
    let next: URL;
    try {
      next = new URL(hop.location, current);
    } catch {
      throw new FetchRefused('protocol', 'A redirect pointed to an invalid URL.', current.href);
    }
    request = nextHopRequest(request, hop.status, next.origin === current.origin);
    current = next;
  }
}

/** Fetches an image's bytes; anything but a 2xx answer is refused as 'http-status'. */
export async function fetchImageBytes(
  url: string,
  policy: FetchPolicy,
): Promise<{ bytes: Buffer; contentType: string }> {
  const response = await guardedFetch(url, policy, { headers: { accept: 'image/*,*/*;q=0.5' } });
  if (response.status < 200 || response.status > 299) {
    throw new FetchRefused(
      'http-status',
      `The image URL answered HTTP ${response.status}.`,
      response.finalUrl,
    );
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  return { bytes: response.bytes, contentType: contentType || 'application/octet-stream' };
}
