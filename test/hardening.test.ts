/**
 * Issue 7's findings, each tried against the service as `npm start` starts it: unbounded placeholder
 * expansion, SVG hidden behind a bitmap type, the SSRF guard with private URLs off (the default),
 * a capability URL that used to answer 500 and log its key, and errors outside the envelope.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { type ServiceProcess, startService } from './harness/process.ts';
import { ADMIN_TOKEN, bearer, http } from './harness/server.ts';

let strict: ServiceProcess; // PLATEN_ALLOW_PRIVATE_URLS off, as deployed
let lenient: ServiceProcess; // private URLs allowed, to reach a lying server on loopback
let liar: Server;
let liarPort = 0;

const EXTERNAL_REF_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>';
const freshDir = () => mkdtempSync(join(tmpdir(), 'platen-hardening-'));
/** SVG after a comment longer than any sniffing window. */
const hiddenSvg = (svg: string) => Buffer.from(`<!--${'x'.repeat(20_000)}-->\n${svg}`);

beforeAll(async () => {
  liar = createServer((_req, res) => {
    // Declares a PNG, sends SVG (with a DOCTYPE) after a long comment.
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(hiddenSvg('<!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'));
  });
  await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
  liarPort = (liar.address() as AddressInfo).port;
  const env = { PLATEN_ADMIN_TOKEN: ADMIN_TOKEN, PLATEN_RENDER_RATE_LIMIT: '0', PLATEN_LOG_LEVEL: 'info' };
  [strict, lenient] = await Promise.all([
    startService({ ...env, PLATEN_DATA_DIR: freshDir(), PLATEN_ALLOW_PRIVATE_URLS: 'false' }),
    startService({ ...env, PLATEN_DATA_DIR: freshDir(), PLATEN_ALLOW_PRIVATE_URLS: 'true' }),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all([strict?.stop('SIGKILL'), lenient?.stop('SIGKILL')]);
  await new Promise((resolve) => liar?.close(resolve));
});

async function workspace(base: string, credits: number) {
  const headers = bearer(ADMIN_TOKEN);
  const ws = await http(base, 'POST', '/admin/v1/workspaces', { body: { name: 'h', credits }, headers });
  const key = await http(base, 'POST', `/admin/v1/workspaces/${ws.json.id}/api-keys`, {
    body: { scopes: ['template:read', 'template:write', 'render:write'] },
    headers,
  });
  const balance = async () =>
    (await http(base, 'GET', `/admin/v1/workspaces/${ws.json.id}`, { headers })).json.creditBalance;
  return { key: key.json.key as string, balance };
}

async function templateWith(base: string, key: string, elements: unknown[], variables = {}) {
  const document = { ...simpleDocument(), variables };
  if (document.pages[0]) document.pages[0].elements = elements as never;
  return http(base, 'POST', '/v1/templates', { body: { name: 't', document }, headers: bearer(key) });
}

const image = (src: string) => ({ id: 'pic', type: 'image', x: 0, y: 0, width: 50, height: 50, src });
const placeholders = (id: string) => ({
  id,
  type: 'text',
  x: 0,
  y: 0,
  width: 100,
  height: 20,
  text: '{{a}}'.repeat(1900),
});

/** Sends raw bytes and returns what comes back before the server closes the connection. */
function rawRequest(base: string, request: string): Promise<string> {
  const { port, hostname } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function envelopeOf(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), json: JSON.parse(body) };
}

describe('placeholders are measured before they are expanded (finding 1)', () => {
  it('refuses to store a document whose text could never be rendered', async () => {
    const { key } = await workspace(strict.base, 10);
    const elements = Array.from({ length: 300 }, (_, i) => placeholders(`t${i}`));
    const res = await templateWith(strict.base, key, elements);
    expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('answers 400 naming the element, charges nothing and stays up, with or without credits', async () => {
    for (const credits of [10, 0]) {
      const { key, balance } = await workspace(strict.base, credits);
      const elements = Array.from({ length: 20 }, (_, i) => placeholders(`t${i}`));
      const t = await templateWith(strict.base, key, elements);
      expect(t.status).toBe(201);
      const res = await http(strict.base, 'POST', `/v1/templates/${t.json.id}/render`, {
        body: { modifications: { a: 'x'.repeat(10_000), b: 'y'.repeat(10_000) } },
        headers: bearer(key),
      });
      expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.json.error.details[0].path).toBe('pages[0].elements[0].text');
      expect(await balance()).toBe(credits);
    }
    expect((await http(strict.base, 'GET', '/healthz')).status).toBe(200);
  });
});

describe('every image is classified by its bytes (finding 4)', () => {
  it('checks SVG hidden in a data:image/png URI: 422 naming the element, refunded', async () => {
    const { key, balance } = await workspace(strict.base, 5);
    const src = `data:image/png;base64,${hiddenSvg(EXTERNAL_REF_SVG).toString('base64')}`;
    const t = await templateWith(strict.base, key, [image(src)]);
    const res = await http(strict.base, 'POST', `/v1/templates/${t.json.id}/render`, {
      headers: bearer(key),
    });
    expect([res.status, res.json.error.code, res.json.error.details.elementId]).toEqual([
      422,
      'RENDER_FAILED',
      'pic',
    ]);
    expect(res.json.error.details.reason).toMatch(/external reference/);
    expect(await balance()).toBe(5);
  });

  it('checks SVG from a server that says it sends a PNG', async () => {
    const { key } = await workspace(lenient.base, 5);
    const t = await templateWith(lenient.base, key, [image(`http://127.0.0.1:${liarPort}/photo.png`)]);
    const res = await http(lenient.base, 'POST', `/v1/templates/${t.json.id}/render`, {
      headers: bearer(key),
    });
    expect([res.status, res.json?.error?.code]).toEqual([422, 'RENDER_FAILED']);
    expect(res.json.error.details.reason).toMatch(/DOCTYPE/);
  });
});

describe('the SSRF guard with private URLs off, end to end', () => {
  it.each([
    ['loopback by address', 'https://127.0.0.1/x.png'],
    ['loopback by name', 'https://localhost/x.png'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['a private range', 'https://10.0.0.1/x.png'],
  ])('refuses %s with 422 naming the element, and refunds', async (_label, url) => {
    const { key, balance } = await workspace(strict.base, 3);
    const t = await templateWith(strict.base, key, [image(url)]);
    expect(t.status).toBe(201);
    const res = await http(strict.base, 'POST', `/v1/templates/${t.json.id}/render`, {
      headers: bearer(key),
    });
    expect([res.status, res.json.error.code, res.json.error.details.elementId]).toEqual([
      422,
      'RENDER_FAILED',
      'pic',
    ]);
    expect(res.json.error.details.reason).toMatch(/private or loopback/);
    expect(await balance()).toBe(3);
  });
});

describe('capability URLs (finding 5)', () => {
  it('answers a dot-named last segment 404 in the envelope and never logs the key', async () => {
    const secret = 'Zq8XcapabilityTOKEN123';
    for (const path of [
      `/files/renders/ws_abc/${secret}/.hidden`,
      `/files/assets/ws_abc/${secret}/.tmp-1`,
      `/files/renders/ws_abc/${secret}/..`,
    ]) {
      const res = await http(strict.base, 'GET', path);
      expect([path, res.status, res.json?.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect(strict.output()).not.toContain(secret);
  });
});

describe('every answer is in the envelope (finding 7)', () => {
  it('answers an HTTP parser error (Content-Length: abc) 400 with the envelope', async () => {
    const answer = await rawRequest(
      strict.base,
      'POST /v1/templates HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
    );
    const { status, json } = envelopeOf(answer);
    expect([status, json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(json.error.requestId).toMatch(/^req_/);
  });

  it('answers oversized headers 413 with the envelope', async () => {
    const answer = await rawRequest(
      strict.base,
      `GET /v1/templates HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
    );
    const { status, json } = envelopeOf(answer);
    expect([status, json.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('answers an unknown route 404 and a malformed If-Match on an unknown template 404', async () => {
    const { key } = await workspace(strict.base, 0);
    const route = await http(strict.base, 'DELETE', '/v2/nothing');
    expect([route.status, route.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const put = await http(strict.base, 'PUT', '/v1/templates/tpl_doesnotexist000000000', {
      body: { document: simpleDocument() },
      headers: { ...bearer(key), 'if-match': 'garbage' },
    });
    expect([put.status, put.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('logged no error and answered no 5xx through all of the above', () => {
    for (const service of [strict, lenient]) {
      const lines = service
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      const bad = lines.filter((line) => /"level":(50|60)/.test(line) || /"statusCode":5\d\d/.test(line));
      expect(bad).toEqual([]);
    }
  });
});
