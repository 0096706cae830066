/**
 * guardedFetch against real loopback servers (127.0.0.1 and ::1 only; nothing else is ever
 * contacted). Refusal cases assert that the server saw no request at all.
 */
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchImageBytes, guardedFetch } from './guard.ts';
import { type FetchPolicy, FetchRefused } from './policy.ts';

interface Hit {
  server: 'v4' | 'v6';
  path: string;
  host: string;
}

const hits: Hit[] = [];
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const BOMB_CAP = 256 * 1024 * 1024; // the bomb server stops by itself even if nobody hangs up

function pumpForever(res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  let sent = 0;
  const pump = () => {
    while (!res.destroyed && sent < BOMB_CAP) {
      sent += chunk.byteLength;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
}

function handle(server: Hit['server'], req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://loopback');
  hits.push({ server, path: url.pathname, host: req.headers.host ?? '' });
  const routes: Record<string, () => void> = {
    '/ok': () => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'),
    '/png': () => res.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(PNG),
    '/missing': () => res.writeHead(404).end('nope'),
    '/redirect': () =>
      res
        .writeHead(Number(url.searchParams.get('status') ?? 302), {
          location: url.searchParams.get('to') ?? '',
        })
        .end(),
    '/loop': () => res.writeHead(302, { location: '/loop' }).end(),
    '/bomb': () => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      pumpForever(res);
    },
    '/liar': () => res.writeHead(200, { 'content-length': String(1024 ** 3) }).write(Buffer.alloc(1024)),
    '/hang': () => {},
    '/slow-body': () => res.writeHead(200, { 'content-length': '100' }).write('0123456789'),
    '/echo': () => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
      });
    },
  };
  (routes[url.pathname] ?? (() => res.writeHead(500).end()))();
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

const v4 = http.createServer((req, res) => handle('v4', req, res));
const v6 = http.createServer((req, res) => handle('v6', req, res));
let P4 = 0;
let P6 = 0;

beforeAll(async () => {
  P4 = await listen(v4, '127.0.0.1');
  P6 = await listen(v6, '::1');
});
afterAll(async () => {
  for (const server of [v4, v6]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const base: FetchPolicy = {
  allowPrivate: false,
  maxBytes: 1024 * 1024,
  timeoutMs: 2000,
  maxRedirects: 3,
  allowedProtocols: ['https:', 'http:'],
};
const open: FetchPolicy = { ...base, allowPrivate: true };

/** Maps made-up names to loopback so no real DNS query is ever made. */
function resolver(map: Record<string, string[]>): NonNullable<FetchPolicy['resolve']> {
  return async (hostname) => {
    const answer = map[hostname];
    if (!answer) throw new Error(`ENOTFOUND ${hostname}`);
    return answer;
  };
}

async function refusal(promise: Promise<unknown>): Promise<FetchRefused> {
  const error = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (!(error instanceof FetchRefused)) throw error;
  return error;
}

const hitsTo = (path: string) => hits.filter((h) => h.path === path).length;

describe('guardedFetch: private addresses', () => {
  it.each([
    () => `http://127.0.0.1:${P4}/ok`,
    () => `http://localhost:${P4}/ok`,
    () => `http://[::1]:${P6}/ok`,
    () => `http://2130706433:${P4}/ok`,
    () => `http://0x7f.1:${P4}/ok`,
    () => `http://0x7f000001:${P4}/ok`,
    () => `http://017700000001:${P4}/ok`,
    () => `http://127.1:${P4}/ok`,
    () => `http://[::ffff:127.0.0.1]:${P4}/ok`,
    () => `http://0.0.0.0:${P4}/ok`,
  ])('refuses loopback form #%# without sending a request', async (url) => {
    const before = hitsTo('/ok');
    expect((await refusal(guardedFetch(url(), base))).reason).toBe('private-address');
    expect(hitsTo('/ok')).toBe(before);
  });

  it('refuses a public-looking name that resolves to 127.0.0.1', async () => {
    const policy = { ...base, resolve: resolver({ 'images.example.test': ['127.0.0.1'] }) };
    const before = hitsTo('/ok');
    const error = await refusal(guardedFetch(`http://images.example.test:${P4}/ok`, policy));
    expect(error.reason).toBe('private-address');
    expect(hitsTo('/ok')).toBe(before);
  });

  it('fetches from loopback when allowPrivate is set (IPv4, IPv6, localhost)', async () => {
    for (const url of [`http://127.0.0.1:${P4}/ok`, `http://[::1]:${P6}/ok`, `http://localhost:${P4}/ok`]) {
      const res = await guardedFetch(url, open);
      expect(res.status).toBe(200);
      expect(res.bytes.toString()).toBe('hello');
      expect(res.headers.get('content-type')).toBe('text/plain');
      expect(res.finalUrl).toBe(url);
    }
  });

  it('connects to the vetted address and keeps the original Host (DNS pinning)', async () => {
    let lookups = 0;
    const resolve = async (host: string) => {
      lookups++;
      expect(host).toBe('cdn.pinned.test');
      return ['127.0.0.1'];
    };
    const res = await guardedFetch(`http://cdn.pinned.test:${P4}/ok`, { ...open, resolve });
    expect(res.bytes.toString()).toBe('hello');
    expect(lookups).toBe(1);
    expect(hits.at(-1)).toEqual({ server: 'v4', path: '/ok', host: `cdn.pinned.test:${P4}` });
  });

  it('sends the original name as TLS SNI and verifies the certificate', async () => {
    const names: string[] = [];
    const tls = https.createServer({
      SNICallback: (name, cb) => {
        names.push(name);
        cb(new Error('no certificate here'));
      },
    });
    const port = await listen(tls, '127.0.0.1');
    const resolve = resolver({ 'img.pinned.test': ['127.0.0.1'] });
    const error = await refusal(guardedFetch(`https://img.pinned.test:${port}/a.png`, { ...open, resolve }));
    expect(error.reason).toBe('network');
    expect(names).toEqual(['img.pinned.test']);
    await new Promise((r) => tls.close(r));
  });
});

describe('guardedFetch: redirects', () => {
  // a.test stands in for a public host: the test seam treats exactly 127.0.0.1 as public, while
  // b.test resolves to ::1, which stays private. Nothing leaves the loopback interface either way.
  const perHop: FetchPolicy = {
    ...base,
    resolve: resolver({ 'a.test': ['127.0.0.1'], 'b.test': ['::1'] }),
    isAllowedAddress: (ip) => ip === '127.0.0.1',
  };

  it('follows an allowed redirect and reports the final URL', async () => {
    const res = await guardedFetch(`http://a.test:${P4}/redirect?to=/ok`, perHop);
    expect(res.status).toBe(200);
    expect(res.bytes.toString()).toBe('hello');
    expect(res.finalUrl).toBe(`http://a.test:${P4}/ok`);
  });

  it.each([
    () => `http://b.test:${P6}/ok`,
    () => `http://[::1]:${P6}/ok`,
    () => `http://0x7f000002:${P4}/ok`,
  ])('checks every hop: a redirect to private target #%# is refused', async (to) => {
    const before = hits.filter((h) => h.path === '/ok').length;
    const url = `http://a.test:${P4}/redirect?to=${encodeURIComponent(to())}`;
    const error = await refusal(guardedFetch(url, perHop));
    expect(error.reason).toBe('private-address');
    expect(hits.filter((h) => h.path === '/ok').length).toBe(before);
    expect(hits.at(-1)?.path).toBe('/redirect');
  });

  it('refuses a redirect to another protocol', async () => {
    const error = await refusal(guardedFetch(`http://127.0.0.1:${P4}/redirect?to=file:///etc/passwd`, open));
    expect(error.reason).toBe('protocol');
  });

  it('stops a redirect loop after maxRedirects', async () => {
    const before = hitsTo('/loop');
    const error = await refusal(guardedFetch(`http://127.0.0.1:${P4}/loop`, open));
    expect(error.reason).toBe('too-many-redirects');
    expect(hitsTo('/loop') - before).toBe(open.maxRedirects + 1);
  });

  it('with maxRedirects 0 refuses any redirect', async () => {
    const error = await refusal(
      guardedFetch(`http://127.0.0.1:${P4}/redirect?to=/ok`, { ...open, maxRedirects: 0 }),
    );
    expect(error.reason).toBe('too-many-redirects');
  });

  it('turns POST into GET on 303 and keeps it on 307', async () => {
    const post = { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } };
    const see = await guardedFetch(`http://127.0.0.1:${P4}/redirect?status=303&to=/echo`, open, post);
    expect(JSON.parse(see.bytes.toString())).toMatchObject({ method: 'GET', body: '' });
    const keep = await guardedFetch(`http://127.0.0.1:${P4}/redirect?status=307&to=/echo`, open, post);
    expect(JSON.parse(keep.bytes.toString())).toMatchObject({ method: 'POST', body: 'payload' });
  });

  it('drops credentials when a redirect changes origin', async () => {
    const policy = { ...open, resolve: resolver({ 'one.test': ['127.0.0.1'], 'two.test': ['127.0.0.1'] }) };
    const to = encodeURIComponent(`http://two.test:${P4}/echo`);
    const init = { headers: { Authorization: 'Bearer secret', 'X-Trace': 't1' } };
    const res = await guardedFetch(`http://one.test:${P4}/redirect?to=${to}`, policy, init);
    const echoed = JSON.parse(res.bytes.toString()) as { headers: Record<string, string> };
    expect(echoed.headers.authorization).toBeUndefined();
    expect(echoed.headers['x-trace']).toBe('t1');
    expect(echoed.headers.host).toBe(`two.test:${P4}`);
  });
});

describe('guardedFetch: limits', () => {
  it('aborts a body that streams forever as too-large, quickly', async () => {
    const started = Date.now();
    const error = await refusal(guardedFetch(`http://127.0.0.1:${P4}/bomb`, { ...open, timeoutMs: 5000 }));
    expect(error.reason).toBe('too-large');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses an announced 1 GB body before reading it', async () => {
    const started = Date.now();
    const error = await refusal(guardedFetch(`http://127.0.0.1:${P4}/liar`, { ...open, timeoutMs: 5000 }));
    expect(error.reason).toBe('too-large');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('accepts a body of exactly maxBytes and refuses one byte more', async () => {
    expect((await guardedFetch(`http://127.0.0.1:${P4}/ok`, { ...open, maxBytes: 5 })).bytes.toString()).toBe(
      'hello',
    );
    const error = await refusal(guardedFetch(`http://127.0.0.1:${P4}/ok`, { ...open, maxBytes: 4 }));
    expect(error.reason).toBe('too-large');
  });

  it.each(['/hang', '/slow-body'])('gives up on %s at the deadline', async (path) => {
    const started = Date.now();
    const error = await refusal(guardedFetch(`http://127.0.0.1:${P4}${path}`, { ...open, timeoutMs: 300 }));
    expect(error.reason).toBe('timeout');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(5_000); // the deadline, not a hang (/hang never ends)
  });

  it('refuses non-http protocols and http when only https is allowed', async () => {
    for (const url of ['ftp://127.0.0.1/x', 'file:///etc/passwd', 'data:image/png;base64,iVBORw0KGgo=']) {
      expect((await refusal(guardedFetch(url, open))).reason).toBe('protocol');
    }
    const before = hitsTo('/ok');
    const httpsOnly: FetchPolicy = { ...open, allowedProtocols: ['https:'] };
    expect((await refusal(guardedFetch(`http://127.0.0.1:${P4}/ok`, httpsOnly))).reason).toBe('protocol');
    expect(hitsTo('/ok')).toBe(before);
  });

  it('reports a refused connection as network', async () => {
    const closed = http.createServer();
    const port = await listen(closed, '127.0.0.1');
    await new Promise((r) => closed.close(r));
    expect((await refusal(guardedFetch(`http://127.0.0.1:${port}/`, open))).reason).toBe('network');
  });
});

describe('fetchImageBytes', () => {
  it('returns the bytes and the bare media type of a 2xx answer', async () => {
    const image = await fetchImageBytes(`http://127.0.0.1:${P4}/png`, open);
    expect(image.bytes.equals(PNG)).toBe(true);
    expect(image.contentType).toBe('image/png');
  });

  it('refuses a non-2xx answer as http-status; guardedFetch itself returns it', async () => {
    const error = await refusal(fetchImageBytes(`http://127.0.0.1:${P4}/missing`, open));
    expect(error.reason).toBe('http-status');
    expect((await guardedFetch(`http://127.0.0.1:${P4}/missing`, open)).status).toBe(404);
  });
});
