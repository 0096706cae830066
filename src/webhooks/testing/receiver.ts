/**
 * Test helper: a loopback HTTP receiver for webhook tests (in-process and process tests). It
 * verifies every request's signature with the `standardwebhooks` library itself, records when each
 * request arrived and when its answer went out, and answers as the test's `behave` decides
 * (a status after an optional delay, or never: 'hang').
 */
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  path: string;
  messageId: string;
  headers: Record<string, string>;
  body: string;
  /** True when `standardwebhooks` accepted the signature with the path's secret. */
  verified: boolean;
  /** How many requests with this webhook-id came before this one. */
  seen: number;
  arrivedAt: number;
  /** When the answer went out (null while hanging). */
  answeredAt: number | null;
  /** When the exchange ended: answered, or the connection closed (null while still open). */
  endedAt: number | null;
  status: number | null;
}

export type Behaviour = { status: number; delayMs?: number } | 'hang';

export interface Receiver {
  /** `http://127.0.0.1:<port><path>`. */
  url(path: string): string;
  /** The secret each path's signatures must verify with. */
  secrets: Map<string, string>;
  requests: ReceivedRequest[];
  behave: (request: ReceivedRequest) => Behaviour;
  /** TCP connections accepted so far (a refused attempt must not even connect). */
  connections: number;
  /** Requests answered 2xx, one per webhook-id (the first). */
  delivered(path?: string): Map<string, ReceivedRequest>;
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startReceiver(behave: Receiver['behave'] = () => ({ status: 200 })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const secrets = new Map<string, string>();
  const counts = new Map<string, number>();
  const receiver: Receiver = {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    secrets,
    requests,
    behave,
    connections: 0,
    delivered(path) {
      const out = new Map<string, ReceivedRequest>();
      for (const r of requests) {
        if (path !== undefined && r.path !== path) continue;
        if (r.status !== null && r.status >= 200 && r.status < 300 && !out.has(r.messageId))
          out.set(r.messageId, r);
      }
      return out;
    },
    async waitFor(condition, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer(async (req, res) => {
    const arrivedAt = Date.now();
    const body = await readBody(req);
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    );
    const path = new URL(req.url ?? '/', 'http://receiver').pathname;
    const messageId = headers['webhook-id'] ?? '';
    let verified = false;
    try {
      new Webhook(secrets.get(path) ?? 'whsec_AAAA').verify(body, headers);
      verified = true;
    } catch {
      verified = false;
    }
    const seen = counts.get(messageId) ?? 0;
    counts.set(messageId, seen + 1);
    const request: ReceivedRequest = {
      path,
      messageId,
      headers,
      body,
      verified,
      seen,
      arrivedAt,
      answeredAt: null,
      endedAt: null,
      status: null,
    };
    requests.push(request);
    res.on('close', () => {
      request.endedAt ??= Date.now();
    });
    const behaviour = receiver.behave(request);
    if (behaviour === 'hang') return;
    if (behaviour.delayMs) await new Promise((r) => setTimeout(r, behaviour.delayMs));
    if (res.destroyed) return;
    res.writeHead(behaviour.status, { 'content-type': 'text/plain' });
    res.end('ok', () => {
      request.status = behaviour.status;
      request.answeredAt = Date.now();
      request.endedAt ??= request.answeredAt;
    });
  });
  server.on('connection', () => {
    receiver.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return receiver;
}

/** Pairs of requests with the same webhook-id that were in flight at the same time. */
export function overlapping(requests: readonly ReceivedRequest[]): [ReceivedRequest, ReceivedRequest][] {
  const byId = new Map<string, ReceivedRequest[]>();
  for (const r of requests) byId.set(r.messageId, [...(byId.get(r.messageId) ?? []), r]);
  const pairs: [ReceivedRequest, ReceivedRequest][] = [];
  for (const list of byId.values()) {
    const sorted = [...list].sort((a, b) => a.arrivedAt - b.arrivedAt);
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1];
      const current = sorted[i];
      if (!previous || !current) continue;
      if (previous.endedAt === null || current.arrivedAt < previous.endedAt) pairs.push([previous, current]);
    }
  }
  return pairs;
}
