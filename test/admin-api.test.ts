/** The operator API and the `platen admin` command that wraps it. */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, admin, bearer, http, startTestServer, type TestServer } from './harness/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('operator API', () => {
  it('creates, reads and updates workspaces', async () => {
    const created = await admin(server.base, 'POST', '/workspaces', { name: 'Acme', credits: 25 });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^ws_/),
      name: 'Acme',
      creditBalance: 25,
      suspended: false,
    });
    const id = created.json.id;
    expect((await admin(server.base, 'GET', `/workspaces/${id}`)).json.creditBalance).toBe(25);
    const patched = await admin(server.base, 'PATCH', `/workspaces/${id}`, {
      suspended: true,
      name: 'Acme 2',
    });
    expect(patched.json).toMatchObject({ suspended: true, name: 'Acme 2' });
  });

  it('grants and withdraws credits, never below zero, with a ledger', async () => {
    const { json: ws } = await admin(server.base, 'POST', '/workspaces', { name: 'Credits' });
    expect(ws.creditBalance).toBe(0);
    expect(
      (await admin(server.base, 'POST', `/workspaces/${ws.id}/credits`, { amount: 10, reason: 'top-up' }))
        .json,
    ).toEqual({ creditBalance: 10 });
    expect((await admin(server.base, 'POST', `/workspaces/${ws.id}/credits`, { amount: -4 })).json).toEqual({
      creditBalance: 6,
    });
    const over = await admin(server.base, 'POST', `/workspaces/${ws.id}/credits`, { amount: -7 });
    expect([over.status, over.json.error.code]).toEqual([409, 'CONFLICT']);
    const ledger = await admin(server.base, 'GET', `/workspaces/${ws.id}/ledger`);
    expect(
      ledger.json.items.map((e: { delta: number; balanceAfter: number }) => [e.delta, e.balanceAfter]),
    ).toEqual([
      [10, 10],
      [-4, 6],
    ]);
  });

  it('creates keys shown once, lists them by masked prefix, and revokes them', async () => {
    const { json: ws } = await admin(server.base, 'POST', '/workspaces', { name: 'Keys', credits: 1 });
    const created = await admin(server.base, 'POST', `/workspaces/${ws.id}/api-keys`, {
      name: 'ci',
      scopes: ['template:read'],
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^plt_[0-9A-Za-z]{32,}$/),
      scopes: ['template:read'],
    });
    expect(created.json.prefix).toBe(`${created.json.key.slice(0, 8)}…`);
    const list = await admin(server.base, 'GET', `/workspaces/${ws.id}/api-keys`);
    expect(list.json.items[0]).not.toHaveProperty('key');
    expect(JSON.stringify(list.json)).not.toContain(created.json.key);
    expect(
      (await http(server.base, 'GET', '/v1/templates', { headers: bearer(created.json.key) })).status,
    ).toBe(200);
    expect((await admin(server.base, 'DELETE', `/api-keys/${created.json.id}`)).status).toBe(204);
    expect(
      (await http(server.base, 'GET', '/v1/templates', { headers: bearer(created.json.key) })).json.error
        .code,
    ).toBe('INVALID_API_KEY');
  });

  it.each([
    ['unknown workspace', 'GET', '/workspaces/ws_0000000000000000000000', undefined, 404, 'NOT_FOUND'],
    ['malformed workspace id', 'GET', '/workspaces/nope', undefined, 404, 'NOT_FOUND'],
    ['missing name', 'POST', '/workspaces', {}, 400, 'VALIDATION_FAILED'],
    ['negative initial credits', 'POST', '/workspaces', { name: 'x', credits: -5 }, 400, 'VALIDATION_FAILED'],
    ['huge credits', 'POST', '/workspaces', { name: 'x', credits: 1e15 }, 400, 'VALIDATION_FAILED'],
    [
      'unknown scope',
      'POST',
      '/workspaces/ws_0000000000000000000000/api-keys',
      { scopes: ['admin:all'] },
      400,
      'VALIDATION_FAILED',
    ],
    [
      'zero amount',
      'POST',
      '/workspaces/ws_0000000000000000000000/credits',
      { amount: 0 },
      400,
      'VALIDATION_FAILED',
    ],
    ['revoke unknown key', 'DELETE', '/api-keys/key_0000000000000000000000', undefined, 404, 'NOT_FOUND'],
  ])('answers %s with its code', async (_name, method, path, body, status, code) => {
    const res = await admin(server.base, method, path, body);
    expect([res.status, res.json?.error?.code]).toEqual([status, code]);
  });

  it('answers 401 when no admin token is configured', async () => {
    const bare = await startTestServer('sqlite', { PLATEN_ADMIN_TOKEN: '' });
    try {
      const res = await http(bare.base, 'GET', '/admin/v1/workspaces', { headers: bearer(ADMIN_TOKEN) });
      expect([res.status, res.json.error.code]).toEqual([401, 'UNAUTHORIZED']);
    } finally {
      await bare.close();
    }
  });
});

describe('platen admin', () => {
  // Asynchronous on purpose: the server under test runs in this process's event loop.
  const run = (...args: string[]) =>
    new Promise<{ status: number; stdout: string }>((resolve) => {
      execFile(
        'node',
        ['bin/platen.js', 'admin', ...args],
        { env: { ...process.env, PLATEN_BASE_URL: server.base, PLATEN_ADMIN_TOKEN: ADMIN_TOKEN } },
        (error, stdout) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout }),
      );
    });

  it('wraps the operator routes', async () => {
    const created = await run('workspaces', 'create', '--name', 'FromCli', '--credits', '5');
    expect(created.status).toBe(0);
    const ws = JSON.parse(created.stdout);
    expect(ws).toMatchObject({ name: 'FromCli', creditBalance: 5 });
    expect(JSON.parse((await run('credits', 'add', ws.id, '3')).stdout)).toEqual({ creditBalance: 8 });
    const key = JSON.parse(
      (await run('keys', 'create', ws.id, '--scopes', 'template:read,render:write')).stdout,
    );
    expect(key.scopes).toEqual(['template:read', 'render:write']);
    expect(JSON.parse((await run('keys', 'list', ws.id)).stdout).items).toHaveLength(1);
    expect((await run('keys', 'revoke', key.id)).status).toBe(0);
    expect(
      JSON.parse((await run('workspaces', 'update', ws.id, '--suspended', 'true')).stdout).suspended,
    ).toBe(true);
  });

  it('wraps users, embeds and webhooks, reading a password from the environment only', async () => {
    const ws = JSON.parse((await run('workspaces', 'create', '--name', 'People')).stdout);
    process.env.PLATEN_USER_PASSWORD = 'a long enough password';
    try {
      const user = JSON.parse(
        (await run('users', 'create', '--email', 'cli@example.com', '--workspaces', ws.id)).stdout,
      );
      expect(user).toMatchObject({ email: 'cli@example.com', workspaceIds: [ws.id] });
      expect(JSON.stringify(user)).not.toContain('a long enough password');
      const operator = JSON.parse(
        (await run('users', 'create', '--email', 'ops-cli@example.com', '--operator')).stdout,
      );
      expect(operator).toMatchObject({ email: 'ops-cli@example.com', operator: true, workspaceIds: [] });
      const log = JSON.parse((await run('audit-log', 'list')).stdout).items;
      expect(log).toContainEqual(
        expect.objectContaining({
          action: 'user.created',
          target: operator.id,
          actor: { type: 'operator_token', id: null, label: 'operator token' },
          details: { email: 'ops-cli@example.com', operator: true, workspaceIds: [] },
        }),
      );
    } finally {
      delete process.env.PLATEN_USER_PASSWORD;
    }
    const embed = JSON.parse((await run('embeds', 'create', ws.id, '--multi-tenant', 'false')).stdout);
    expect(embed).toMatchObject({ workspaceId: ws.id, multiTenant: false, enabled: true });
    expect(JSON.parse((await run('embeds', 'list', ws.id)).stdout).items).toHaveLength(1);
    expect((await run('embeds', 'delete', embed.id)).status).toBe(0);
    expect((await run('embeds', 'get', embed.id)).status).toBe(1);
    const hook = JSON.parse(
      (await run('webhooks', 'create', ws.id, '--target', 'http://127.0.0.1:9/hook')).stdout,
    );
    expect(hook.secret).toMatch(/^whsec_/);
    const rotated = JSON.parse((await run('webhooks', 'rotate-secret', hook.id)).stdout);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(JSON.parse((await run('webhooks', 'deliveries', hook.id)).stdout).items).toEqual([]);
  });

  it('exits non-zero on an error answer and prints help for unknown commands', async () => {
    expect((await run('workspaces', 'get', 'ws_0000000000000000000000')).status).toBe(1);
    const help = await run('bogus');
    expect(help.status).toBe(2);
    expect(help.stdout).toContain('workspaces create');
  });
});
