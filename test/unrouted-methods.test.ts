/**
 * A method the router does not know (Node's parser accepts PROPFIND, MKCOL, PURGE…) answers 405 with the
 * envelope, and logs nothing: Fastify's fallback logged its whole route table at warn level for
 * each one, which let any client flood the logs.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness/server.ts';

function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(text);
  });
}

describe('methods nobody routes', () => {
  let server: TestServer;
  const logs: string[] = [];
  beforeAll(async () => {
    server = await startTestServer('sqlite', {}, { logTo: logs, logLevel: 'warn' });
  });
  afterAll(() => server.close());

  it('answers 405 METHOD_NOT_ALLOWED with the envelope and Allow, and logs nothing', async () => {
    const port = Number(new URL(server.base).port);
    for (const method of ['PROPFIND', 'MKCOL', 'LOCK', 'PURGE', 'SEARCH']) {
      const answer = await raw(
        port,
        `${method} /v1/templates HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(answer, method).toMatch(/^HTTP\/1\.1 405 /);
      expect(answer).toMatch(/\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(body.error.code).toBe('METHOD_NOT_ALLOWED');
      expect(answer).toContain(`x-request-id: ${body.error.requestId}`);
    }
    expect(logs).toEqual([]);
    // Routed methods are untouched.
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.base}/v1/templates`, { method: 'OPTIONS' })).status).toBeLessThan(500);
  });
});
