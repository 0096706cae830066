/**
 * The statuses the OpenAPI document lists per operation cannot drift from docs/api.md's error
 * catalogue nor from what the routes answer: the document's error codes are the catalogue's, with
 * the same statuses; every operation lists 500, and every one whose method reads a body (POST, PUT,
 * PATCH, DELETE) lists 400, 413 and 415; and each operation, sent with valid credentials a JSON
 * body where it may take none, malformed JSON, a body of a type no route takes, and an oversized
 * body, answers a status it lists (never a 5xx), with the error envelope.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeToStatus } from '../src/core/errors.ts';
import { createEmbed, mint } from './harness/embeds.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  requestBody?: { content: Record<string, unknown> };
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: { Error: { properties: { error: { properties: { code: { enum: string[] } } } } } } };
};

/** docs/api.md's catalogue: code → status, from the table of its "Errors" section. */
function catalogue(): Map<string, number> {
  const text = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
  const section = text.slice(
    text.indexOf('\n## Errors'),
    text.indexOf('\n## ', text.indexOf('\n## Errors') + 1),
  );
  const codes = new Map<string, number>();
  for (const row of section.split('\n').filter((line) => /^\| \d{3} \|/.test(line))) {
    const [, status = '', names = ''] = row.split('|').map((cell) => cell.trim());
    for (const [, code = ''] of names.matchAll(/`([A-Z_]+)`/g)) codes.set(code, Number(status));
  }
  return codes;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request over its own connection; a body shorter than `declaredLength` is sent as it is. */
function send(
  base: string,
  request: {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: Buffer;
    declaredLength?: number;
  },
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  const body = request.body ?? Buffer.alloc(0);
  const head =
    `${request.method} ${request.path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n` +
    Object.entries(request.headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    (request.body || request.declaredLength
      ? `Content-Length: ${request.declaredLength ?? body.length}\r\n`
      : '') +
    '\r\n';
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`${request.method} ${request.path}: no answer`));
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    };
    const timer = setTimeout(finish, 10_000);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      // The answer is complete once its declared length has arrived (a 413 may come mid-upload).
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      if (end >= 0 && length !== undefined && Buffer.byteLength(text.slice(end + 4)) >= Number(length))
        finish();
    });
    socket.on('end', finish);
    socket.on('error', finish);
    socket.write(Buffer.concat([Buffer.from(head), body]));
  });
}

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

describe('the statuses the OpenAPI document lists', () => {
  let server: TestServer;
  let document: Document;
  let credentials: Record<string, string | undefined>;
  let embedId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const { key, workspaceId } = await workspaceWithKey(server.base, { credits: 5 });
    const embed = await createEmbed(server.base, workspaceId);
    embedId = embed.id;
    credentials = {
      apiKey: key,
      operator: ADMIN_TOKEN,
      embedSession: await mint(server.base, embed.id, 'u'),
    };
    document = (await (await fetch(`${server.base}/openapi.json`)).json()) as Document;
  });
  afterAll(() => server.close());

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );

  it("the document's error codes are docs/api.md's catalogue, with the same statuses", () => {
    const documented = catalogue();
    const enumerated = document.components.schemas.Error.properties.error.properties.code.enum;
    expect([...documented.keys()].sort()).toEqual([...enumerated].sort());
    for (const code of enumerated)
      expect([code, documented.get(code)]).toEqual([code, codeToStatus[code as keyof typeof codeToStatus]]);
  });

  it('every error status an operation lists is in the catalogue and answers the envelope', () => {
    const statuses = new Set(catalogue().values());
    for (const { op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(statuses.has(Number(status)), `${op.operationId} ${status}`).toBe(true);
        expect(response.content?.['application/json']?.schema?.$ref, `${op.operationId} ${status}`).toBe(
          '#/components/schemas/Error',
        );
      }
    }
  });

  it('every operation lists 500, and every one whose method reads a body 400, 413 and 415', () => {
    for (const { method, op } of operations()) {
      const listed = Object.keys(op.responses);
      expect(listed, op.operationId).toContain('500');
      if (BODY_METHODS.has(method) || op.requestBody)
        expect(listed, op.operationId).toEqual(expect.arrayContaining(['400', '413', '415']));
    }
  });

  it('each operation answers only statuses it lists, whatever body it is sent', async () => {
    const routes = new Map(server.routes.map((route) => [`${route.method} ${route.url}`, route]));
    const problems: string[] = [];
    let probes = 0;
    for (const { path, method, op } of operations()) {
      const route = routes.get(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
      expect(route, `${method} ${path} is a registered route`).toBeDefined();
      const token = route ? credentials[route.auth] : undefined;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'embedId' ? embedId : 'nope'));
      const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
      // The type the operation takes (JSON when it declares none), for the oversized body.
      const ownType = Object.keys(op.requestBody?.content ?? {})[0] ?? 'application/json';
      const typed = (type: string) => ({ ...auth, 'Content-Type': type });
      // [what, the request, the statuses a body-reading method must answer once the credential holds]
      const probesOf: Array<[string, Parameters<typeof send>[1], number[] | null]> = [
        [
          'a JSON body',
          {
            method,
            path: url,
            headers: typed('application/json'),
            body: Buffer.from('{"unexpected":[1,2,3]}'),
          },
          null,
        ],
        // 415 where the route takes no JSON at all (the CSV route refuses the type before reading).
        [
          'malformed JSON',
          { method, path: url, headers: typed('application/json'), body: Buffer.from('{"unexpected":') },
          [400, 415],
        ],
        // Upload routes and their scope read any type as bytes: only listed statuses, checked below.
        [
          'a text/plain body',
          { method, path: url, headers: typed('text/plain'), body: Buffer.from('hello') },
          null,
        ],
        [
          'an XML body',
          { method, path: url, headers: typed('application/xml'), body: Buffer.from('<a/>') },
          null,
        ],
        [
          'a malformed Content-Type',
          { method, path: url, headers: typed('not a/media type'), body: Buffer.from('x') },
          [415],
        ],
        [
          'an oversized body',
          {
            method,
            path: url,
            headers: typed(ownType),
            body: Buffer.alloc(1024, 0x20),
            // Over every route's body limit (video and audio uploads take up to 100 MB).
            declaredLength: 1024 * 1024 * 1024,
          },
          [413],
        ],
      ];
      for (const [what, request, expected] of probesOf) {
        probes++;
        const answer = await send(server.base, { ...request, method: method.toUpperCase() });
        const name = `${op.operationId} (${method.toUpperCase()} ${path}) sent ${what}: ${answer.status}`;
        const listed = Object.keys(op.responses).map(Number);
        if (answer.status >= 500 || !listed.includes(answer.status)) {
          problems.push(`${name} is not listed (${listed.join(', ')}) ${answer.body.slice(0, 200)}`);
          continue;
        }
        if (answer.status >= 400) {
          const error = JSON.parse(answer.body).error;
          if (!error?.code || error.requestId !== answer.headers['x-request-id'])
            problems.push(`${name} without the envelope and its X-Request-Id: ${answer.body.slice(0, 200)}`);
        }
        // A body-reading method refuses what it cannot read, once the credential is accepted (a
        // credential refused, 401 or 403, comes first). GET bodies are never read.
        const refusedFirst = answer.status === 401 || answer.status === 403;
        if (
          expected !== null &&
          BODY_METHODS.has(method) &&
          !refusedFirst &&
          !expected.includes(answer.status)
        )
          problems.push(`${name}, expected ${expected.join(' or ')}`);
      }
    }
    expect(probes).toBeGreaterThan(200);
    expect(problems).toEqual([]);
  });
});
