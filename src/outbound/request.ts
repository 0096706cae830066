/**
 * One HTTP exchange with a vetted target: connects only to the pinned address (a custom lookup),
 * while Host, SNI and certificate checks use the URL's own host name. Redirects are reported, not
 * followed; bodies are capped at maxBytes while streaming; the caller's signal aborts everything.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { FetchRefused } from './policy.ts';
import type { VettedTarget } from './vet.ts';

export interface HopRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export type HopResult =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'response'; status: number; headers: Headers; bytes: Buffer };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Answers every lookup with the vetted address, whatever name is asked for. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    // Node asks for all addresses when autoSelectFamily (happy eyeballs) is on.
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function toHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] ?? '', raw[i + 1] ?? '');
    } catch {
      // A header the Fetch API cannot represent is dropped rather than failing the fetch.
    }
  }
  return headers;
}

export function requestOnce(
  target: VettedTarget,
  request: HopRequest,
  maxBytes: number,
  signal: AbortSignal,
): Promise<HopResult> {
  const { url } = target;
  return new Promise<HopResult>((resolve, reject) => {
    let settled = false;
    const fail = (reason: 'too-large' | 'network' | 'timeout', message: string, cause?: unknown) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(new FetchRefused(signal.aborted ? 'timeout' : reason, message, url.href, { cause }));
    };
    const succeed = (result: HopResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };

    const body = request.body;
    const headers: Record<string, string> = {
      ...request.headers,
      host: url.host,
      'accept-encoding': 'identity',
      connection: 'close',
    };
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));

    const client = url.protocol === 'https:' ? https : http;
    const req = client.request({
      protocol: url.protocol,
      hostname: target.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers,
      lookup: pinnedLookup(target.address, target.family),
      agent: false, // no pooled sockets: a socket is never reused for a differently vetted hop
      signal,
    });

    req.on('error', (error) => fail('network', `Could not fetch ${url.host}: ${error.message}`, error));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) {
        res.destroy();
        succeed({ kind: 'redirect', status, location });
        return;
      }
      const announced = Number(res.headers['content-length']);
      if (Number.isFinite(announced) && announced > maxBytes) {
        fail('too-large', `The response announces ${announced} bytes; the limit is ${maxBytes}.`);
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > maxBytes) {
          fail('too-large', `The response exceeds the limit of ${maxBytes} bytes.`);
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () =>
        succeed({ kind: 'response', status, headers: toHeaders(res), bytes: Buffer.concat(chunks) }),
      );
      res.on('error', (error) => fail('network', `The response from ${url.host} broke off.`, error));
      res.on('close', () => fail('network', `The response from ${url.host} ended early.`));
    });
    req.end(body);
  });
}
