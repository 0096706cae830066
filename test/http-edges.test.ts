/**
 * What a client can send around the routes, answered with the error envelope and an `X-Request-Id`
 * equal to its `requestId`, never a 5xx nor a closed socket: malformed multipart uploads, an
 * `Expect` Node does not meet, `CONNECT`, errors raised before any route runs (an undecodable path,
 * an over-long parameter, oversized headers, malformed HTTP); JSON sent to the CSV batch route
 * (415); a signed URL's 304 without a body's headers; and PLATEN_TRUST_PROXY deciding `request.ip`.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUrl } from '../src/auth/index.ts';
import { ConfigError, loadConfig, type TrustProxy } from '../src/core/config.ts';
import { createLogger } from '../src/core/logger.ts';
import { buildKernel } from '../src/http/kernel.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { createEmbed, mint } from './harness/embeds.ts';
import {
  admin,
  bearer,
  freePort,
  type HttpResult,
  http,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` on a new connection and reads the first answer (until it closes, or 5 s). */
function raw(base: string, request: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no answer: ${JSON.stringify(text)}`));
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = text.slice(end + 4);
      if (headers['content-length'] !== undefined) body = body.slice(0, Number(headers['content-length']));
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.from(body, 'latin1').toString(),
      });
    };
    const timer = setTimeout(finish, 5_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', finish);
    socket.on('error', finish);
    socket.write(request);
  });
}

/** The envelope with `code`, and the same request id in the header as in the body. */
function expectEnvelope(
  status: number,
  headers: Record<string, string> | Headers,
  body: unknown,
  code: string,
) {
  const header = headers instanceof Headers ? headers.get('x-request-id') : headers['x-request-id'];
  const error = (body as { error?: { code?: string; message?: string; requestId?: string } }).error;
  expect({ code: error?.code, message: typeof error?.message }).toEqual({ code, message: 'string' });
  expect(error?.requestId).toMatch(/^req_[0-9A-Za-z]{16}$/);
  expect(header).toBe(error?.requestId);
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
}

const expectHttpEnvelope = (res: HttpResult, status: number, code: string) => {
  expect(res.status).toBe(status);
  expectEnvelope(res.status, res.headers, res.json, code);
};

const expectRawEnvelope = (answer: RawAnswer, status: number, code: string) => {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expectEnvelope(answer.status, answer.headers, JSON.parse(answer.body), code);
};

describe('edges of the HTTP surface', () => {
  let server: TestServer;
  let key: string;
  let workspaceId: string;
  let host: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ key, workspaceId } = await workspaceWithKey(server.base, { credits: 10 }));
    host = new URL(server.base).host;
  });
  afterAll(() => server.close());

  describe('malformed multipart uploads are 400 VALIDATION_FAILED, never 5xx', () => {
    const part = (data: string) =>
      `--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${data}`;
    const bodies: Record<string, { type: string; body: string }> = {
      'no boundary': { type: 'multipart/form-data', body: '--x\r\n\r\nabc\r\n--x--' },
      'an empty boundary': { type: 'multipart/form-data; boundary=', body: '--x\r\n\r\nabc\r\n--x--' },
      'a part cut short': { type: 'multipart/form-data; boundary=x', body: part('abc') },
      'no closing delimiter': { type: 'multipart/form-data; boundary=x', body: `${part('abc')}\r\n` },
      'headers cut short': {
        type: 'multipart/form-data; boundary=x',
        body: '--x\r\nContent-Disposition: form-data; name="file"',
      },
      'only the preamble': { type: 'multipart/form-data; boundary=x', body: 'hello' },
    };

    for (const [name, { type, body }] of Object.entries(bodies)) {
      it(`${name}: POST /v1/assets`, async () => {
        const res = await http(server.base, 'POST', '/v1/assets', {
          raw: body,
          headers: { ...bearer(key), 'content-type': type },
        });
        expectHttpEnvelope(res, 400, 'VALIDATION_FAILED');
      });
    }

    it('the same on POST /v1/embed/:embedId/assets', async () => {
      const embed = await createEmbed(server.base, workspaceId);
      const token = await mint(server.base, embed.id, 'u');
      for (const { type, body } of Object.values(bodies)) {
        const res = await http(server.base, 'POST', `/v1/embed/${embed.id}/assets`, {
          raw: body,
          headers: { ...bearer(token), 'content-type': type },
        });
        expectHttpEnvelope(res, 400, 'VALIDATION_FAILED');
      }
    });

    it('a well-formed multipart upload still works', async () => {
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      );
      const form = new FormData();
      form.set('file', new Blob([png], { type: 'image/png' }), 'a.png');
      const res = await fetch(`${server.base}/v1/assets`, {
        method: 'POST',
        headers: bearer(key),
        body: form,
      });
      expect(res.status).toBe(201);
    });
  });

  it('an Expect other than 100-continue answers 417 EXPECTATION_FAILED on any path', async () => {
    for (const path of ['/healthz', '/v1/templates', '/no/such/route', '/admin/v1/workspaces']) {
      const answer = await raw(
        server.base,
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nExpect: teapot\r\n\r\n`,
      );
      expectRawEnvelope(answer, 417, 'EXPECTATION_FAILED');
    }
    // 100-continue is met as before.
    const continued = await raw(
      server.base,
      `POST /v1/templates HTTP/1.1\r\nHost: ${host}\r\nExpect: 100-continue\r\nContent-Type: application/json\r\n` +
        `Content-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(continued.status).toBe(100);
  });

  it('CONNECT answers 405 METHOD_NOT_ALLOWED with Allow, instead of a closed socket', async () => {
    for (const target of [`${host}`, 'example.com:443', '/v1/templates']) {
      const answer = await raw(server.base, `CONNECT ${target} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expectRawEnvelope(answer, 405, 'METHOD_NOT_ALLOWED');
      expect(answer.headers.allow).toContain('GET');
    }
  });

  it('an OPTIONS without the preflight headers on a CORS path is 400 in the envelope; a preflight passes', async () => {
    const embed = await createEmbed(server.base, workspaceId);
    const path = `/v1/embed/${embed.id}/templates`;
    const bare = await http(server.base, 'OPTIONS', path);
    expectHttpEnvelope(bare, 400, 'VALIDATION_FAILED');
    const noMethod = await http(server.base, 'OPTIONS', path, { headers: { origin: 'https://app.example' } });
    expectHttpEnvelope(noMethod, 400, 'VALIDATION_FAILED');
    const preflight = await http(server.base, 'OPTIONS', path, {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  describe('X-Request-Id equals the body requestId on errors raised before any route runs', () => {
    it('a path that cannot be decoded', async () => {
      for (const path of ['/v1/templates/%zz', '/v1/templates/%E0%A4%A', '/admin/v1/workspaces/%']) {
        const res = await http(server.base, 'GET', path, { headers: bearer(key) });
        expectHttpEnvelope(res, 404, 'NOT_FOUND');
      }
    });

    it('a path parameter over 100 characters', async () => {
      const res = await http(server.base, 'GET', `/v1/templates/${'a'.repeat(150)}`, {
        headers: bearer(key),
      });
      expectHttpEnvelope(res, 404, 'NOT_FOUND');
    });

    it('headers over 16 KB', async () => {
      const answer = await raw(
        server.base,
        `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
      );
      expectRawEnvelope(answer, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('malformed HTTP', async () => {
      for (const request of [
        'NOT HTTP AT ALL\r\n\r\n',
        `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nContent-Length: abc\r\n\r\n`,
        `POST /v1/templates HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n`,
        `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nBad Header\r\n\r\n`,
      ]) {
        expectRawEnvelope(await raw(server.base, request), 400, 'VALIDATION_FAILED');
      }
    });
  });

  it('JSON sent to the CSV batch route answers 415, well-formed or not', async () => {
    const template = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 't', document: simpleDocument() },
      headers: bearer(key),
    });
    const path = `/v1/templates/${template.json.id}/batches/csv`;
    for (const raw of ['{"rows":[{"name":"a"}]}', '{not json', '']) {
      const res = await http(server.base, 'POST', path, {
        raw,
        headers: { ...bearer(key), 'content-type': 'application/json' },
      });
      expectHttpEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const form = await http(server.base, 'POST', path, {
      raw: 'name=a',
      headers: { ...bearer(key), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectHttpEnvelope(form, 415, 'UNSUPPORTED_MEDIA_TYPE');
    // Credentials still come first.
    const anonymous = await http(server.base, 'POST', path, {
      raw: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(anonymous.status).toBe(403);
    // No body at all is an empty CSV, as before.
    const empty = await http(server.base, 'POST', path, { headers: bearer(key) });
    expectHttpEnvelope(empty, 400, 'VALIDATION_FAILED');
  });

  it("a signed URL's 304 carries neither Content-Type nor Content-Length", async () => {
    const template = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 't', document: simpleDocument() },
      headers: bearer(key),
    });
    const secret = await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {});
    expect(secret.status).toBe(201);
    const url = signUrl(
      server.base,
      `/v1/templates/${template.json.id}/image.png`,
      { name: 'W' },
      secret.json.secret,
    );
    const first = await fetch(url);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const etag = first.headers.get('etag') ?? '';
    const { pathname, search } = new URL(url);
    const answer = await raw(
      server.base,
      `GET ${pathname}${search} HTTP/1.1\r\nHost: ${host}\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(304);
    expect(answer.headers.etag).toBe(etag);
    expect(answer.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(answer.headers['content-type']).toBeUndefined();
    expect(answer.headers['content-length']).toBeUndefined();
    expect(answer.body).toBe('');
  });
});

describe('PLATEN_TRUST_PROXY', () => {
  it('parses addresses, CIDRs, range names and hop counts; refuses true and garbage', () => {
    const trust = (value?: string) =>
      loadConfig({ PLATEN_DATA_DIR: '/tmp/x', ...(value === undefined ? {} : { PLATEN_TRUST_PROXY: value }) })
        .PLATEN_TRUST_PROXY;
    expect(trust()).toBe(false);
    expect(trust('')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example.com', '1.2.3.4/8/1', '127.0.0.1,', '99'])
      expect(() => trust(bad), bad).toThrow(ConfigError);
    expect(() => trust('true')).toThrow(/PLATEN_TRUST_PROXY/);
  });

  /** A kernel with one public route answering the client address Fastify derived. */
  async function ipOf(trustProxy: TrustProxy | undefined, forwardedFor?: string): Promise<string> {
    const { app } = await buildKernel({
      logger: createLogger('silent'),
      baseUrl: 'http://localhost',
      maxBodyBytes: 1024,
      authenticators: {},
      workspaceSuspended: async () => false,
      readiness: {},
      trustProxy,
      features: [
        {
          name: 'probe',
          routes: async (scope) => void scope.get('/ip', async (request) => ({ ip: request.ip })),
        },
      ],
    });
    const port = await freePort();
    await app.listen({ port, host: '127.0.0.1' });
    try {
      const res = await fetch(`http://127.0.0.1:${port}/ip`, {
        headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      });
      return ((await res.json()) as { ip: string }).ip;
    } finally {
      await app.close();
    }
  }

  it('request.ip is the peer unless the peer is a trusted proxy', async () => {
    // Untrusted (the default, or a list without the peer): X-Forwarded-For is ignored.
    expect(await ipOf(undefined, '203.0.113.7')).toBe('127.0.0.1');
    expect(await ipOf(false, '203.0.113.7')).toBe('127.0.0.1');
    expect(await ipOf(['10.0.0.0/8'], '203.0.113.7')).toBe('127.0.0.1');
    // The peer trusted: the forwarded address, and the nearest untrusted hop of a chain.
    expect(await ipOf(['127.0.0.1'], '203.0.113.7')).toBe('203.0.113.7');
    expect(await ipOf(['127.0.0.0/8'], '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(await ipOf(['loopback'], '203.0.113.7')).toBe('203.0.113.7');
    expect(await ipOf(1, '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(await ipOf(2, '198.51.100.1, 203.0.113.7')).toBe('198.51.100.1');
    expect(await ipOf(['127.0.0.1'])).toBe('127.0.0.1');
  });
});
