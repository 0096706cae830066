/**
 * A generated-request fuzz test over the operations of /openapi.json, with a fixed seed: plausible
 * and hostile requests (wrong types, huge numbers, unicode, missing and extra fields, bad ids, bad
 * content types, truncated and deeply nested bodies), and malformed HTTP over raw sockets, against
 * a real server on loopback with a workspace, an API key of every scope, the operator token and an
 * embed session. Whatever a client sends: no 5xx; every error answer is the envelope
 * `{error: {code, message, requestId}}` with an `X-Request-Id` equal to its `requestId`; every 2xx
 * JSON body parses; and nothing is logged at level error or above (≥ 50).
 *
 * Bounded: a few thousand requests within a time budget. Every URL it generates names 127.0.0.1
 * (webhooks, images), so nothing leaves the machine. A failure prints the seed and the request.
 */
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1X1, simpleDocument } from './fixtures/samples.ts';
import { createEmbed, mint } from './harness/embeds.ts';
import {
  ADMIN_TOKEN,
  admin,
  bearer,
  http,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';

/** Every log line of the service under test at warn or above. */
const logs = { lines: [] as string[] };

const SEED = 0x5eed_2026;
const REQUESTS_PER_OPERATION = 60;
const RAW_REQUESTS = 400;
const BUDGET_MS = 40_000;

/** mulberry32: a small seeded PRNG, so every run sends the same requests. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Random = ReturnType<typeof prng>;

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Json }>;
  requestBody?: { required?: boolean; content: Record<string, { schema?: Json }> };
  responses: Record<string, unknown>;
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  'null',
  'undefined',
  '\u0000',
  'a\u0000b',
  '😀'.repeat(40),
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͚',
  '\u202Eevil',
  '\ud800',
  '\udfff\ud800',
  '../../../etc/passwd',
  '%00%zz%',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{{name}}{{#each}}',
  '__proto__',
  'constructor',
  'x'.repeat(10_001),
  '١٢٣',
  'NaN',
  'Infinity',
  '-0',
  '1e999',
  'true',
  '[]',
  '{}',
  'http://127.0.0.1:9/hook',
  'https://127.0.0.1:9/x.png',
  'asset:nope',
  'data:image/png;base64,AAAA',
  'file:///etc/passwd',
  'javascript:alert(1)',
];
const HOSTILE_NUMBERS = [
  0,
  -1,
  1,
  -0,
  0.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  -(2 ** 63),
  4.9e-324,
  999_999_999_999,
  2.5,
];
const HOSTILE_IDS = [
  'nope',
  'tpl_0000000000000000',
  'ast_AAAAAAAAAAAAAAAA',
  'ws_x',
  '0',
  '-1',
  'null',
  '%00',
  '%zz',
  '%2e%2e%2f%2e%2e',
  '..',
  '.',
  encodeURIComponent('😀'),
  encodeURIComponent('\u0000'),
  'a'.repeat(100),
  'a'.repeat(101),
  'a'.repeat(300),
  '%E0%A4%A',
  encodeURIComponent("'; DROP TABLE templates; --"),
  '__proto__',
  'constructor',
];

function hostileValue(random: Random, depth = 0): unknown {
  switch (random.int(0, 7)) {
    case 0:
      return random.pick(HOSTILE_STRINGS);
    case 1:
      return random.pick(HOSTILE_NUMBERS);
    case 2:
      return random.pick([true, false, null]);
    case 3:
      return depth > 2 ? [] : Array.from({ length: random.int(0, 4) }, () => hostileValue(random, depth + 1));
    case 4:
      return depth > 2 ? {} : { [random.pick(HOSTILE_STRINGS)]: hostileValue(random, depth + 1) };
    case 5:
      return randomString(random);
    case 6:
      return random.int(-1000, 100_000);
    default:
      return random.next() * 1e6;
  }
}

function randomString(random: Random): string {
  const alphabet = 'abcXYZ019 _-./:%@#é漢字😀\u200b\n\t"\\';
  const chars = [...alphabet];
  return Array.from({ length: random.int(0, 24) }, () => random.pick(chars)).join('');
}

/** A plausible value of a JSON schema (refs resolved), sometimes bent out of shape. */
function sampleOf(schema: Json | undefined, random: Random, components: Json, key = '', depth = 0): unknown {
  if (!schema || depth > 6) return hostileValue(random, 2);
  const ref = schema.$ref as string | undefined;
  if (ref)
    return sampleOf(components[ref.split('/').pop() ?? ''] as Json, random, components, key, depth + 1);
  if (random.chance(0.06)) return hostileValue(random);
  const choices = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (choices) return sampleOf(random.pick(choices), random, components, key, depth + 1);
  if (schema.enum) return random.pick(schema.enum as unknown[]);
  if ('const' in schema) return schema.const;
  if (/^(url|src|href)$/i.test(key))
    return random.pick(['http://127.0.0.1:9/hook', 'https://127.0.0.1:9/a.png', 'not a url']);
  if (key === 'document')
    return random.chance(0.7) ? simpleDocument(randomString(random)) : hostileValue(random);
  const type = Array.isArray(schema.type)
    ? random.pick(schema.type as string[])
    : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const out: Json = {};
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required ?? []) as string[]);
      for (const [name, property] of Object.entries(properties)) {
        if (required.has(name) ? random.chance(0.04) : random.chance(0.5)) continue;
        out[name] = sampleOf(property, random, components, name, depth + 1);
      }
      if (
        schema.additionalProperties &&
        typeof schema.additionalProperties === 'object' &&
        random.chance(0.5)
      )
        for (let i = random.int(0, 3); i > 0; i--)
          out[randomString(random) || 'k'] = sampleOf(
            schema.additionalProperties as Json,
            random,
            components,
            '',
            depth + 1,
          );
      if (random.chance(0.05))
        out[random.pick(['extra', '__proto__', 'constructor', ''])] = hostileValue(random);
      return out;
    }
    case 'array': {
      const length = random.chance(0.05) ? random.int(0, 2000) : random.int(0, 4);
      return Array.from({ length }, () => sampleOf(schema.items as Json, random, components, key, depth + 1));
    }
    case 'integer':
    case 'number': {
      if (random.chance(0.2)) return random.pick(HOSTILE_NUMBERS);
      const min = typeof schema.minimum === 'number' ? schema.minimum : -10;
      const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, min + 10_000) : min + 1000;
      return type === 'integer' ? random.int(min, max) : min + random.next() * (max - min);
    }
    case 'boolean':
      return random.chance(0.5);
    case 'string':
      return random.chance(0.2) ? random.pick(HOSTILE_STRINGS) : randomString(random);
    case 'null':
      return null;
    default:
      return hostileValue(random);
  }
}

/** JSON text of a body, sometimes cut short, nested absurdly, or with a prototype key. */
function bodyText(value: unknown, random: Random): string {
  const text = JSON.stringify(value) ?? 'null';
  const roll = random.next();
  if (roll < 0.05) return text.slice(0, random.int(0, Math.max(0, text.length - 1)));
  if (roll < 0.07) {
    const depth = random.pick([100, 1000, 10_000, 100_000]);
    return random.chance(0.5)
      ? '['.repeat(depth) + ']'.repeat(depth)
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  }
  if (roll < 0.09 && text.startsWith('{') && text.length > 2)
    return `{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},${text.slice(1)}`;
  if (roll < 0.1) return `${text}${text}`;
  if (roll < 0.11) return `\ufeff${text}`;
  return text;
}

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const agent = new Agent({ keepAlive: true, maxSockets: 6 });

function send(base: string, probe: Probe): Promise<Answer | null> {
  return new Promise((resolve, reject) => {
    let req: ReturnType<typeof httpRequest>;
    try {
      req = httpRequest(`${base}${probe.path}`, {
        method: probe.method,
        headers: { ...probe.headers, ...(probe.body ? { 'content-length': String(probe.body.length) } : {}) },
        agent,
      });
    } catch {
      // A header value Node's client itself refuses to send (raw sockets cover those).
      return resolve(null);
    }
    req.setTimeout(20_000, () => req.destroy(new Error('timed out')));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(probe.body);
  });
}

/** Writes raw bytes on a new connection; the first answer, or null when the server just closes. */
function sendRaw(base: string, bytes: Buffer, halfClose: boolean): Promise<string | null> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(chunks.length ? Buffer.concat(chunks).toString('latin1') : null);
    };
    const timer = setTimeout(finish, 1_500);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      if (end >= 0 && length !== undefined && text.length - end - 4 >= Number(length)) finish();
    });
    socket.on('end', finish);
    socket.on('error', finish);
    // Mostly the client then says it is done (what is incomplete stays so); else it waits.
    socket.write(bytes, () => {
      if (halfClose) socket.end();
    });
  });
}

/** What is wrong with an answer, if anything. */
function problemsOf(probe: Pick<Probe, 'method'>, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  const header = answer.headers['x-request-id'];
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.status >= 400) {
    if (typeof header !== 'string' || !/^req_[0-9A-Za-z]{16}$/.test(header)) problems.push('no X-Request-Id');
    if (probe.method !== 'HEAD') {
      let error: { code?: unknown; message?: unknown; requestId?: unknown } | undefined;
      try {
        error = JSON.parse(answer.body.toString('utf8')).error;
      } catch {
        error = undefined;
      }
      if (
        typeof error?.code !== 'string' ||
        !/^[A-Z_]+$/.test(error.code) ||
        typeof error.message !== 'string'
      )
        problems.push('no error envelope');
      else if (typeof header === 'string' && error.requestId !== header)
        problems.push('requestId differs from X-Request-Id');
    }
  } else if (
    answer.status >= 200 &&
    answer.status < 300 &&
    type.startsWith('application/json') &&
    probe.method !== 'HEAD'
  ) {
    try {
      JSON.parse(answer.body.toString('utf8'));
    } catch {
      problems.push('2xx JSON body does not parse');
    }
  }
  return problems;
}

/** Raw requests Node's parser, the router or the kernel must refuse cleanly. */
function rawRequest(random: Random, host: string, paths: string[]): Buffer {
  const path = random.pick(paths);
  const line = () =>
    random.pick([
      'GET',
      'POST',
      'PUT',
      'DELETE',
      'PATCH',
      'HEAD',
      'OPTIONS',
      'CONNECT',
      'TRACE',
      'FOO',
      'get',
      'PRI',
      '',
    ]);
  const version = () =>
    random.pick(['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1 ', 'HTTP/9.9', 'HTTX/1.1', '']);
  const json = '{"name":"x","document":{}}';
  const variants: Array<() => string | Buffer> = [
    () => `${line()} ${path} ${version()}\r\nHost: ${host}\r\n\r\n`,
    () => `${line()} ${path}\r\n\r\n`,
    () =>
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${random.pick(['-1', 'abc', '1e3', '99999999999999999999', '1, 2', ''])}\r\n\r\n`,
    () => `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!`,
    () =>
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n${random.pick(['zz', '-1', 'ffffffffffffffffff', '5;x=y'])}\r\n{"a":1}\r\n0\r\n\r\n`,
    () =>
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: ${random.pick(['gzip', 'chunked, identity', 'x'])}\r\n\r\n`,
    () =>
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${json.length + random.int(1, 50)}\r\n\r\n${json}`,
    () =>
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${random.pick(['Bad Header', 'X\u0000Y: 1', ': empty', 'X-A: a\u0000b', 'X-Fold: a\r\n folded', 'Üñí: 1'])}\r\n\r\n`,
    () =>
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(random.pick([8_000, 17_000, 70_000]))}\r\n\r\n`,
    () =>
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
    () =>
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nExpect: ${random.pick(['100-continue', 'teapot', '', '100-continue, x'])}\r\n\r\n`,
    () => `CONNECT ${random.pick([host, 'example.invalid:443', '/'])} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    () => `GET http://${host}${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    () => `GET ${path}?${'a=%zz&'.repeat(random.int(1, 200))} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    () =>
      `GET /${'%'.repeat(random.int(1, 9))}${random.pick(['zz', 'E0%A4', '00', 'c0%af'])} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    () => Buffer.from(Array.from({ length: random.int(1, 300) }, () => random.int(0, 255))),
    () =>
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: ${random.pick(['websocket', 'h2c', 'x'])}\r\nConnection: Upgrade\r\n\r\n`,
    () => `GET ${path} HTTP/1.1\n\n`,
    () => `GET ${path} HTTP/1.1\r\nHost: ${host}`,
  ];
  const made = random.pick(variants)();
  return typeof made === 'string' ? Buffer.from(made, 'latin1') : made;
}

describe('fuzzing the API (fixed seed)', () => {
  let server: TestServer;
  let document: { paths: Record<string, Record<string, Operation>>; components: { schemas: Json } };
  let auth: Record<string, string>;
  let ids: string[];
  let embedId: string;

  beforeAll(async () => {
    server = await startTestServer(
      'sqlite',
      { PLATEN_RENDER_WORKERS: '1' },
      { logTo: logs.lines, logLevel: 'warn' },
    );
    const main = await workspaceWithKey(server.base, { credits: 20 });
    // A second workspace whose resources the operator routes may change at will (suspend, delete…)
    // without taking the fuzzed key, embed or session away.
    const victim = await workspaceWithKey(server.base, { credits: 5, name: 'victim' });
    const embed = await createEmbed(server.base, main.workspaceId);
    embedId = embed.id;
    auth = { apiKey: main.key, operator: ADMIN_TOKEN, embedSession: await mint(server.base, embed.id, 'u') };
    const template = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 't', document: simpleDocument() },
      headers: bearer(main.key),
    });
    const asset = await http(server.base, 'POST', '/v1/assets', {
      raw: PNG_1X1,
      headers: { ...bearer(main.key), 'content-type': 'image/png' },
    });
    const victimEmbed = await createEmbed(server.base, victim.workspaceId);
    const secret = await admin(
      server.base,
      'POST',
      `/workspaces/${victim.workspaceId}/url-signing-secrets`,
      {},
    );
    const webhook = await admin(server.base, 'POST', `/workspaces/${victim.workspaceId}/webhooks`, {
      url: 'http://127.0.0.1:9/hook',
      events: ['template.create'],
    });
    ids = [
      template.json.id,
      asset.json.id,
      victim.workspaceId,
      victim.keyId,
      victimEmbed.id,
      secret.json?.id,
      webhook.json?.id,
    ].filter((id): id is string => typeof id === 'string');
    document = (await (await fetch(`${server.base}/openapi.json`)).json()) as typeof document;
    logs.lines.length = 0;
  }, 60_000);
  afterAll(async () => {
    agent.destroy();
    await server?.close();
  });

  it('no 5xx, the envelope on every error, parseable 2xx, nothing logged at error', {
    timeout: 120_000,
  }, async () => {
    const random = prng(SEED);
    const routes = new Map(server.routes.map((route) => [`${route.method} ${route.url}`, route]));
    const probes: Probe[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const route = routes.get(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
        for (let n = 0; n < REQUESTS_PER_OPERATION; n++)
          probes.push(makeProbe(random, path, method, op, route?.auth));
      }
    }
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    const started = Date.now();
    let sent = 0;
    // Six at a time, in a fixed order of submission.
    let next = 0;
    const worker = async () => {
      while (next < probes.length && Date.now() - started < BUDGET_MS) {
        const probe = probes[next++] as Probe;
        let answer: Answer | null;
        try {
          answer = await send(server.base, probe);
        } catch (error) {
          failures.push(`${describeProbe(probe)}: ${(error as Error).message}`);
          continue;
        }
        if (!answer) continue;
        sent++;
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        for (const problem of problemsOf(probe, answer))
          failures.push(
            `${describeProbe(probe)}: ${problem} (${answer.status} ${answer.body.toString('utf8').slice(0, 160)})`,
          );
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    const apiMs = Date.now() - started;

    const host = new URL(server.base).host;
    const paths = [
      '/healthz',
      '/v1/templates',
      `/v1/templates/${ids[0]}`,
      '/v1/assets',
      '/admin/v1/workspaces',
      `/v1/embed/${embedId}`,
      '/nope',
    ];
    const raws = Array.from({ length: RAW_REQUESTS }, () => ({
      bytes: rawRequest(random, host, paths),
      halfClose: random.chance(0.9),
    }));
    const rawWorker = async () => {
      for (let raw = raws.shift(); raw && Date.now() - started < BUDGET_MS; raw = raws.shift()) {
        const { bytes } = raw;
        const text = await sendRaw(server.base, bytes, raw.halfClose);
        sent++;
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text ?? '')?.[1] ?? 0);
        if (!text || status === 100) continue;
        const end = text.indexOf('\r\n\r\n');
        const headers: Record<string, string> = {};
        for (const line of text.slice(0, end).split('\r\n').slice(1)) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const method = bytes.toString('latin1').split(' ')[0] ?? '';
        // Only the first answer: a kept-alive connection may carry another after it.
        const length = headers['content-length'];
        const rest = text.slice(end + 4);
        const body = Buffer.from(length === undefined ? rest : rest.slice(0, Number(length)), 'latin1');
        const answer = { status, headers, body };
        for (const problem of problemsOf({ method }, answer))
          failures.push(
            `raw ${JSON.stringify(bytes.toString('latin1').slice(0, 120))}: ${problem} (${text.slice(0, 200)})`,
          );
      }
    };
    await Promise.all(Array.from({ length: 10 }, rawWorker));
    // Give background work (renders, webhook attempts) a moment to log what it would.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const errors = logs.lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    console.info(
      `fuzz: seed ${SEED}, ${sent} requests in ${Date.now() - started} ms (API ${apiMs} ms), statuses ${JSON.stringify(statuses)}, ${logs.lines.length} log lines at warn or above`,
    );
    expect(sent).toBeGreaterThan(1000);
    expect(failures.slice(0, 40)).toEqual([]);
    expect(errors.slice(0, 10).map((line) => line.slice(0, 600))).toEqual([]);
  });

  function makeProbe(random: Random, path: string, method: string, op: Operation, authKind?: string): Probe {
    const components = document.components.schemas;
    // Path: real ids of every kind, the embed's own id, and hostile ones.
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'embedId' && random.chance(0.85)) return embedId;
      return random.chance(0.5) ? random.pick(ids) : random.pick(HOSTILE_IDS);
    });
    // Query: the declared parameters with plausible or hostile values, sometimes extra ones.
    const query = new URLSearchParams();
    for (const parameter of op.parameters ?? []) {
      if (parameter.in !== 'query' || (!parameter.required && random.chance(0.5))) continue;
      const value = sampleOf(parameter.schema, random, components, parameter.name);
      query.append(parameter.name, typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
    }
    if (random.chance(0.1))
      query.append(random.pick(['extra', 'sig', 'limit', '__proto__', 'a[b]']), String(hostileValue(random)));
    const search = query.toString();
    // Credentials: the operation's own mostly, else another kind, a broken one or none.
    const token =
      random.chance(0.85) && authKind
        ? auth[authKind]
        : random.pick([...Object.values(auth), 'plt_nope', 'x', '']);
    const headers: Record<string, string> = {};
    if (token !== undefined && (token !== '' || random.chance(0.5)))
      headers.authorization = `Bearer ${token}`;
    if (random.chance(0.05))
      headers['if-match'] = random.pick(['"1"', '*', 'W/"x"', '"', '1', `"${'9'.repeat(30)}"`]);
    if (random.chance(0.05)) headers['if-none-match'] = random.pick(['*', '"rnd_x"', 'W/""', ',,,']);
    if (random.chance(0.05)) headers['x-workspace-id'] = random.pick([...ids, 'ws_nope', '']);
    if (random.chance(0.03)) headers['idempotency-key'] = random.pick(['k', 'x'.repeat(500), '😀']);
    if (random.chance(0.03)) headers.accept = random.pick(['text/html', '*/*;q=abc', 'application/json']);
    // Body: from the schema (or none), in its declared type mostly, else another.
    const content = op.requestBody?.content ?? {};
    const declared = Object.keys(content);
    let type: string | undefined = declared[0] ?? (random.chance(0.3) ? 'application/json' : undefined);
    if (random.chance(0.12))
      type = random.pick([
        'text/plain',
        'application/xml',
        'multipart/form-data',
        'multipart/form-data; boundary=zz',
        'text/csv',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'application/octet-stream',
        'not a type',
        '*/*',
        '',
      ]);
    let body: Buffer | undefined;
    if (type !== undefined) {
      if (type.startsWith('application/json') || type === 'not a type' || type === '')
        body = Buffer.from(
          bodyText(
            sampleOf(content['application/json']?.schema ?? { type: 'object' }, random, components),
            random,
          ),
        );
      else if (type === 'text/csv')
        body = Buffer.from(
          random.pick([
            'name\nA\nB',
            'a,b\n"unclosed',
            '',
            '\ufeffname\r\nx',
            `${'c,'.repeat(500)}\n1`,
            `name\n${'x\n'.repeat(1200)}`,
          ]),
        );
      else if (type.startsWith('multipart/'))
        body = Buffer.from(
          random.pick([
            '--zz\r\n\r\nabc',
            '--zz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n',
            '--zz--\r\n',
            '',
          ]),
        );
      else if (type === 'application/octet-stream' || type === 'image/png')
        body = random.chance(0.5)
          ? PNG_1X1.subarray(0, random.int(0, PNG_1X1.length))
          : Buffer.from(randomString(random));
      else body = Buffer.from(randomString(random));
      if (type !== '') headers['content-type'] = type;
    }
    const methods = random.chance(0.03)
      ? random.pick(['HEAD', 'OPTIONS', 'PUT', 'TRACE'])
      : method.toUpperCase();
    return { method: methods, path: `${url}${search ? `?${search}` : ''}`, headers, body };
  }
});

function describeProbe(probe: Probe): string {
  const body = probe.body ? ` ${JSON.stringify(probe.body.toString('utf8').slice(0, 160))}` : '';
  return `${probe.method} ${probe.path.slice(0, 200)} ${JSON.stringify(probe.headers).slice(0, 200)}${body}`;
}
