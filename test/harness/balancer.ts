/**
 * A load balancer on loopback, as a platform puts in front of Platen: each request goes to the
 * next instance in turn (round robin per request, not per connection, so consecutive calls of one
 * client land on different instances), and an instance that refuses the connection is skipped; one
 * that fails mid-request answers 502 (the request may have had effects, so it is not repeated).
 * Counts what each instance served, so tests can show that every instance took part.
 */
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  /** The public base URL (what every instance is told is its `PLATEN_BASE_URL`). */
  base: string;
  /** Upstream base URLs; may be replaced at any time (an instance restarted on a new port). */
  targets: string[];
  /** Requests answered by each target index. */
  served: number[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(target: string, request: IncomingMessage, body: Buffer): Promise<IncomingMessage> {
  const url = new URL(request.url ?? '/', target);
  return new Promise((resolve, reject) => {
    const upstream = forward(url, { method: request.method, headers: request.headers }, resolve);
    upstream.on('error', reject);
    upstream.end(body);
  });
}

export async function startBalancer(targets: string[] = []): Promise<Balancer> {
  let next = 0;
  const balancer: Balancer = { base: '', targets, served: [], close: async () => {} };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await bodyOf(request);
    const tried = balancer.targets.length;
    for (let attempt = 0; attempt < tried; attempt++) {
      const index = next++ % balancer.targets.length;
      const target = balancer.targets[index];
      if (!target) continue;
      try {
        const upstream = await send(target, request, body);
        balancer.served[index] = (balancer.served[index] ?? 0) + 1;
        response.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(response);
        return;
      } catch (error) {
        // Refused: the instance is down, the next one takes it (the request never left). Anything
        // else (a reset mid-request) may have done the work: answered 502, as balancers do for
        // requests that are not safe to repeat.
        if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') {
          response.writeHead(502, { 'content-type': 'text/plain' }).end('the instance failed mid-request');
          return;
        }
      }
    }
    response.writeHead(502, { 'content-type': 'text/plain' }).end('no instance answered');
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  balancer.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  balancer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return balancer;
}
