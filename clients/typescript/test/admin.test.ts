/**
 * The operator client against a real server: a workspace and its key made through the SDK are a
 * working pair; credits, the ledger, embeds and session minting, URL-signing secrets, webhooks and
 * their delivery log and redelivery, users and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../../src/webhooks/testing/receiver.ts';
import { simpleDocument } from '../../../test/fixtures/samples.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../../test/harness/server.ts';
import { Platen, PlatenAdmin, PlatenError } from '../src/index.ts';
import { caught } from './setup.ts';

let server: TestServer;
let receiver: Receiver;
let admin: PlatenAdmin;
beforeAll(async () => {
  server = await startTestServer('sqlite');
  receiver = await startReceiver(() => ({ status: 200 }));
  admin = new PlatenAdmin({ baseUrl: server.base, adminToken: ADMIN_TOKEN });
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

describe('PlatenAdmin', () => {
  it('creates a workspace and a key that renders in it, and accounts for its credits', async () => {
    const workspace = await admin.workspaces.create({ name: 'Acme', credits: 3 });
    expect(workspace).toMatchObject({ name: 'Acme', creditBalance: 3, suspended: false });
    const key = await admin.apiKeys.create(workspace.id, {
      name: 'backend',
      scopes: ['template:write', 'render:write'],
    });
    expect(key.key).toMatch(/^plt_/);
    const platen = new Platen({ baseUrl: server.base, apiKey: key.key });
    const template = await platen.templates.create({ name: 'Card', document: simpleDocument() });
    await platen.render(template.id);
    expect(await admin.credits.adjust(workspace.id, { amount: 10, reason: 'top-up' })).toEqual({
      creditBalance: 12,
    });
    expect((await admin.ledger.list(workspace.id)).items.map((entry) => entry.delta)).toEqual([3, -1, 10]);
    expect((await admin.workspaces.get(workspace.id)).creditBalance).toBe(12);
    expect((await admin.workspaces.list()).items.map((w) => w.id)).toContain(workspace.id);
    const listed = await admin.apiKeys.list(workspace.id);
    expect(listed.items).toEqual([expect.objectContaining({ id: key.id, prefix: key.prefix })]);
    expect(listed.items[0]).not.toHaveProperty('key');
    await admin.apiKeys.revoke(key.id);
    expect(await caught(platen.templates.list())).toMatchObject({ code: 'INVALID_API_KEY' });
    await admin.workspaces.update(workspace.id, { suspended: true });
    expect((await admin.workspaces.get(workspace.id)).suspended).toBe(true);
    const audit = await admin.auditLog.list({ limit: 50 });
    expect(audit.items.map((entry) => [entry.action, entry.target])).toContainEqual([
      'api_key.revoked',
      key.id,
    ]);
  });

  it('embeds: a customer backend mints a session with its key when the embed requires one', async () => {
    const workspace = await admin.workspaces.create({ name: 'Embedded' });
    const key = await admin.apiKeys.create(workspace.id, {
      scopes: ['template:read', 'template:write', 'render:write', 'asset:read', 'asset:write'],
    });
    const embed = await admin.embeds.create(workspace.id, {
      brandTitle: 'Acme Studio',
      mintRequiresApiKey: true,
    });
    const platen = new Platen({ baseUrl: server.base, apiKey: key.key });
    expect(await platen.embeds.getInfo(embed.id)).toMatchObject({ enabled: true, brandTitle: 'Acme Studio' });
    const session = await platen.embeds.createSession(embed.id, { userId: 'user-1' });
    expect(session.token.split('.')).toHaveLength(3);
    const anonymous = await fetch(`${server.base}/v1/embed/${embed.id}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'user-1' }),
    });
    expect(anonymous.status).toBe(403);
    await admin.embeds.update(embed.id, { enabled: false });
    expect((await admin.embeds.get(embed.id)).enabled).toBe(false);
    expect((await admin.embeds.list(workspace.id)).items).toHaveLength(1);
    await admin.embeds.delete(embed.id);
    expect(await caught(platen.embeds.getInfo(embed.id))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('URL-signing secrets: created with a cap, rotated with a grace period, revoked', async () => {
    const workspace = await admin.workspaces.create({ name: 'Signed' });
    const secret = await admin.urlSigningSecrets.create(workspace.id, { name: 'og', renderCap: 5 });
    expect(secret).toMatchObject({ renderCap: 5, renders: 0 });
    expect(secret.secret).toMatch(/^urlsec_/);
    expect(await admin.urlSigningSecrets.update(secret.id, { renderCap: null })).toMatchObject({
      renderCap: null,
    });
    const rotated = await admin.urlSigningSecrets.rotate(secret.id);
    expect(rotated.secret).not.toBe(secret.secret);
    expect(rotated.previousValidUntil).toEqual(expect.any(String));
    await admin.urlSigningSecrets.revoke(secret.id);
    expect((await admin.urlSigningSecrets.list(workspace.id)).items).toEqual([]);
  });

  it('webhooks: delivered, logged, sent again on request, and given a new secret', async () => {
    const workspace = await admin.workspaces.create({ name: 'Hooked', credits: 5 });
    const hook = await admin.webhooks.create(workspace.id, {
      url: receiver.url('/admin'),
      events: ['render.completed'],
    });
    expect(hook.secret).toMatch(/^whsec_/);
    // Waiting reads the render's state, which takes template:read.
    const key = await admin.apiKeys.create(workspace.id, {
      scopes: ['template:read', 'template:write', 'render:write'],
    });
    const platen = new Platen({ baseUrl: server.base, apiKey: key.key });
    const template = await platen.templates.create({ name: 't', document: simpleDocument() });
    await platen.renderAndWait(template.id, {}, { pollIntervalMs: 50 });
    await receiver.waitFor(() => receiver.delivered('/admin').size === 1, 20_000);
    // The receiver has the message; the service records the attempt once the answer is in.
    await expect
      .poll(async () => (await admin.webhooks.deliveries(hook.id, { limit: 10 })).items.length, {
        timeout: 10_000,
      })
      .toBe(1);
    let log = await admin.webhooks.deliveries(hook.id, { limit: 10 });
    expect(log.items).toEqual([
      expect.objectContaining({ eventType: 'render.completed', ok: true, attempt: 1 }),
    ]);
    const messageId = log.items[0]?.messageId ?? '';
    expect(await admin.webhooks.redeliver(hook.id, messageId)).toEqual({ queued: true });
    await receiver.waitFor(
      () => receiver.requests.filter((r) => r.messageId === messageId).length === 2,
      20_000,
    );
    await expect
      .poll(async () => (await admin.webhooks.deliveries(hook.id)).items.length, { timeout: 10_000 })
      .toBe(2);
    log = await admin.webhooks.deliveries(hook.id);
    expect(log.items.map((d) => d.attempt)).toEqual([2, 1]);
    const rotated = await admin.webhooks.rotateSecret(hook.id);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(await admin.webhooks.update(hook.id, { events: ['render.failed'] })).toMatchObject({
      events: ['render.failed'],
    });
    expect((await admin.webhooks.get(hook.id)).url).toBe(receiver.url('/admin'));
    expect((await admin.webhooks.list(workspace.id)).items).toHaveLength(1);
    await admin.webhooks.delete(hook.id);
    expect(await caught(admin.webhooks.get(hook.id))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('users: a member of a workspace, and a taken email refused', async () => {
    const workspace = await admin.workspaces.create({ name: 'People' });
    const user = await admin.users.create({
      email: 'ada@example.com',
      password: 'correct horse battery staple',
      workspaceIds: [workspace.id],
    });
    expect(user).toMatchObject({ email: 'ada@example.com', operator: false, workspaceIds: [workspace.id] });
    expect(await admin.users.get(user.id)).toEqual(user);
    expect((await admin.users.list()).items.map((u) => u.id)).toContain(user.id);
    const taken = await caught(
      admin.users.create({
        email: 'ada@example.com',
        password: 'another long password',
        workspaceIds: [workspace.id],
      }),
    );
    expect(taken).toBeInstanceOf(PlatenError);
    expect(taken).toMatchObject({ status: 409, code: 'CONFLICT' });
  });
});
