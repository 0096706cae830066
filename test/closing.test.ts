/**
 * A request that reaches a closing server on an open keep-alive connection gets the envelope:
 * 503 OVERLOADED with Retry-After, X-Request-Id and Connection: close, not Fastify's own body.
 */

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/core/logger.ts';
import { buildKernel } from '../src/http/kernel.ts';

describe('a closing server', () => {
  it('answers a request that arrives on an open connection with the envelope, 503 OVERLOADED', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const slowStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { app } = await buildKernel({
      logger: createLogger('silent'),
      baseUrl: 'http://localhost',
      maxBodyBytes: 1024,
      authenticators: {},
      workspaceSuspended: async () => false,
      readiness: {},
      features: [
        {
          name: 'probe',
          routes: async (scope) => {
            scope.get('/slow', { config: { auth: 'none' } }, async () => {
              started();
              await held;
              return { ok: true };
            });
            scope.get('/quick', { config: { auth: 'none' } }, async () => ({ ok: true }));
          },
        },
      ],
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    try {
      socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
      await slowStarted;
      const closed = app.close();
      // Pipelined on the same connection: handled once the slow one is answered, while closing.
      socket.write('GET /quick HTTP/1.1\r\nHost: x\r\n\r\n');
      await new Promise((r) => setTimeout(r, 50));
      release();
      await ended;
      await closed;
    } finally {
      release();
      socket.destroy();
    }
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    const late = answers[1] ?? '';
    expect(late).toMatch(/^HTTP\/1\.1 503/);
    expect(late).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(late).toMatch(/\r\nconnection: close\r\n/i);
    const body = JSON.parse(late.slice(late.indexOf('\r\n\r\n') + 4));
    expect(body.error.code).toBe('OVERLOADED');
    expect(late).toContain(`x-request-id: ${body.error.requestId}`);
  });
});
