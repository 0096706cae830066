/**
 * A NUL character (U+0000) in a path, a query or a body is refused with 400 before anything reads
 * it: PostgreSQL's text cannot hold it, so without the guard these answered 500 there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './harness/backends.ts';
import { consolePerson } from './harness/console.ts';
import {
  ADMIN_TOKEN,
  bearer,
  http,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';

describe.each(backends)('NUL in input ($name)', ({ name, skip }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(name);
  });
  afterAll(() => server?.close());

  it.skipIf(skip)('answers 400 VALIDATION_FAILED, never 500, wherever it appears', async () => {
    const { workspaceId, key } = await workspaceWithKey(server.base);
    const operator = await consolePerson(server.base, { operator: true });
    const answers = [
      await http(server.base, 'GET', '/console/api/workspaces/%00', { headers: operator.change() }),
      await http(server.base, 'POST', '/admin/v1/url-signing-secrets/%00/rotate', {
        headers: bearer(ADMIN_TOKEN),
      }),
      await http(server.base, 'GET', '/admin/v1/audit-log?workspaceId=%00', { headers: bearer(ADMIN_TOKEN) }),
      await http(server.base, 'GET', '/admin/v1/audit-log?userId=a%00b', { headers: bearer(ADMIN_TOKEN) }),
      await http(server.base, 'GET', '/v1/templates/tpl_%00', { headers: bearer(key) }),
      await http(server.base, 'POST', '/v1/templates', {
        headers: bearer(key),
        body: { name: 'a\u0000b', document: { width: 10, height: 10, pages: [{ elements: [] }] } },
      }),
      await http(server.base, 'PATCH', `/admin/v1/workspaces/${workspaceId}`, {
        headers: bearer(ADMIN_TOKEN),
        body: { name: 'x\u0000' },
      }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.bytes.toString()).toBe(400);
      expect(answer.json.error.code).toBe('VALIDATION_FAILED');
    }
    const signIn = await fetch(`${server.base}/oauth/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.base },
      body: 'email=a%00b%40example.com&password=whatever',
    });
    expect(signIn.status).toBe(400);
  });
});
