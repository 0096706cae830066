/**
 * `platen admin` for people's lifecycle, the setup link and the filtered audit log: each command
 * reaches its operator route, and the audit trail names the operator token as who did it.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './harness/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// Asynchronous on purpose: the server under test runs in this process's event loop.
const run = (...args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'node',
      ['bin/platen.js', 'admin', ...args],
      {
        env: {
          ...process.env,
          PLATEN_BASE_URL: server.base,
          PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
          PLATEN_USER_PASSWORD: 'a long enough password',
        },
      },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
const json = async (...args: string[]) => {
  const result = await run(...args);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
};

describe('platen admin: people and setup', () => {
  it('issues a setup link while no operator exists, and refuses once one does', async () => {
    const link = await json('setup-link');
    expect(link.url).toMatch(new RegExp(`^${server.base}/console/setup\\?token=`));
    expect(Date.parse(link.expiresAt)).toBeGreaterThan(Date.now());
    await json('users', 'create', '--email', 'first-ops@example.com', '--operator', 'true');
    const refused = await run('setup-link');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/CONFLICT/);
  });

  it('disables, enables, promotes, demotes, moves, resets, unlocks and deletes a person', async () => {
    const a = await json('workspaces', 'create', '--name', 'A');
    const b = await json('workspaces', 'create', '--name', 'B');
    const user = await json('users', 'create', '--email', 'member@example.com', '--workspaces', a.id);
    expect(user).toMatchObject({ disabled: false, operator: false, workspaceIds: [a.id], lockedUntil: null });
    expect(await json('users', 'disable', user.id)).toMatchObject({ disabled: true });
    expect(await json('users', 'enable', user.id)).toMatchObject({ disabled: false });
    expect(await json('users', 'promote', user.id)).toMatchObject({ operator: true });
    expect(await json('users', 'demote', user.id)).toMatchObject({ operator: false });
    expect(await json('users', 'workspaces', user.id, `${a.id},${b.id}`)).toMatchObject({
      workspaceIds: [a.id, b.id],
    });
    const reset = await json('users', 'reset-password', user.id);
    expect(reset.url).toMatch(new RegExp(`^${server.base}/console/reset/[A-Za-z0-9_-]{20,}$`));
    expect((await run('users', 'unlock', user.id)).status).toBe(0);
    expect((await run('users', 'delete', user.id)).status).toBe(0);
    expect((await run('users', 'get', user.id)).status).toBe(1);

    const actions = (await json('audit-log', 'list', '--limit', '100')).items
      .filter((entry: { target: string }) => entry.target === user.id)
      .map((entry: { action: string; actor: { type: string } }) => [entry.action, entry.actor.type]);
    for (const action of [
      'user.created',
      'user.disabled',
      'user.enabled',
      'user.promoted',
      'user.demoted',
      'user.memberships_changed',
      'user.password_reset_issued',
      'user.unlocked',
      'user.deleted',
    ])
      expect(actions).toContainEqual([action, 'operator_token']);
    const filtered = await json('audit-log', 'list', '--action', 'user.disabled');
    expect(filtered.items.map((entry: { action: string }) => entry.action)).toEqual(['user.disabled']);
  });
});
