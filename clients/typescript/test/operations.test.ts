/**
 * The SDK covers the API: every operationId of the served /openapi.json is in OPERATIONS, bound to
 * an SDK method or excluded with a reason, and the table names no operation the document lacks. A
 * new route therefore fails here (and `tsc`, through the table's `satisfies`) until the SDK wraps
 * it or says why not. Each bound method exists on real clients and, called, sends the very method
 * and path its operation documents (to the real server, which may refuse the placeholder ids).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../../test/harness/server.ts';
import { OPERATIONS, type OperationId, Platen, PlatenAdmin } from '../src/index.ts';

interface DocumentedOperation {
  method: string;
  path: string;
  bodyTypes: string[];
}

let server: TestServer;
let documented: Map<string, DocumentedOperation>;
beforeAll(async () => {
  server = await startTestServer('sqlite');
  const document = await (await fetch(`${server.base}/openapi.json`)).json();
  documented = new Map();
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>))
    for (const [method, operation] of Object.entries(item)) {
      const op = operation as { operationId?: string; requestBody?: { content: Record<string, unknown> } };
      if (op.operationId)
        documented.set(op.operationId, {
          method: method.toUpperCase(),
          path,
          bodyTypes: Object.keys(op.requestBody?.content ?? {}),
        });
    }
});
afterAll(() => server.close());

/** Clients whose every request is recorded before it goes to the real server. */
function recordingClients() {
  const sent: Array<{ method: string; path: string }> = [];
  const fetchAndRecord = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({ method: request.method, path: new URL(request.url).pathname });
    return fetch(request);
  };
  const options = { baseUrl: server.base, fetch: fetchAndRecord };
  const clients = {
    platen: new Platen({ ...options, apiKey: 'plt_placeholder000000000000000' }),
    admin: new PlatenAdmin({ ...options, adminToken: ADMIN_TOKEN }),
  };
  return { clients, sent };
}

/** The method at `platen.batches.create`, bound to its namespace. */
function resolve(root: object, path: string): unknown {
  const names = path.split('.');
  const last = names.pop() ?? '';
  const owner = names.reduce<unknown>(
    (at, name) => (at as Record<string, unknown> | undefined)?.[name],
    root,
  );
  const method = (owner as Record<string, unknown> | undefined)?.[last];
  return typeof method === 'function' ? method.bind(owner) : method;
}

/** Placeholder arguments: an id per path parameter, then what the body or query takes. */
function argumentsFor(operation: DocumentedOperation): unknown[] {
  const ids = (operation.path.match(/\{[^}]+\}/g) ?? []).map(() => 'placeholder');
  if (operation.bodyTypes.includes('text/csv')) return [...ids, 'headline\nA\n'];
  if (operation.bodyTypes.includes('application/octet-stream'))
    return [...ids, new Uint8Array([1]), 'image/png'];
  return [...ids, {}];
}

describe('OPERATIONS', () => {
  it('has every operation of the served document, and none it lacks', () => {
    expect([...documented.keys()].filter((id) => !(id in OPERATIONS))).toEqual([]);
    expect(Object.keys(OPERATIONS).filter((id) => !documented.has(id))).toEqual([]);
  });

  it('binds each operation to an SDK method that sends its method and path, or says why it is left out', async () => {
    for (const [id, binding] of Object.entries(OPERATIONS) as Array<
      [OperationId, (typeof OPERATIONS)[OperationId]]
    >) {
      if (typeof binding === 'object') {
        expect(binding.excluded.length, id).toBeGreaterThan(20);
        continue;
      }
      const operation = documented.get(id);
      if (!operation) throw new Error(`${id} is not in the document`);
      const { clients, sent } = recordingClients();
      const method = resolve(clients, binding);
      expect(typeof method, binding).toBe('function');
      await (method as (...args: unknown[]) => Promise<unknown>)(...argumentsFor(operation)).catch(() => {});
      const pattern = new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      expect(sent[0]?.method, `${binding} → ${id}`).toBe(operation.method);
      expect(sent[0]?.path, `${binding} → ${id}`).toMatch(pattern);
    }
  });
});
