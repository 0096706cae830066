/**
 * Graceful shutdown of a real service process (`npm start`): on SIGTERM it takes no new work, lets
 * the render and the webhook attempt in flight finish (both waiting on slow loopback peers), records
 * them, and exits; after a restart the render is stored and charged once, and the webhook message is
 * not sent again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../src/webhooks/testing/receiver.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { type ServiceProcess, startService } from './harness/process.ts';
import { ADMIN_TOKEN, bearer, http, startOrigin } from './harness/server.ts';
import { embedSubscriber, embedTemplate, eventually } from './harness/webhooks.ts';

const SLOW_MS = 2_000;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('graceful shutdown (SIGTERM)', () => {
  it('finishes the render and the webhook attempt in flight, then exits; nothing is lost or repeated', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    let imageRequested = false;
    const origin = await startOrigin((_req, res) => {
      imageRequested = true;
      setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png), SLOW_MS);
    });
    cleanups.push(() => origin.close());
    const receiver: Receiver = await startReceiver(() => ({ status: 200, delayMs: SLOW_MS }));
    cleanups.push(() => receiver.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'platen-shutdown-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      PLATEN_DATA_DIR: dataDir,
      PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
      PLATEN_ALLOW_PRIVATE_URLS: 'true',
      PLATEN_RENDER_RATE_LIMIT: '0',
      PLATEN_SHUTDOWN_GRACE_MS: '15000',
      PLATEN_BOOTSTRAP: 'false',
    };
    let service: ServiceProcess = await startService(env);
    cleanups.push(async () => {
      await service.stop('SIGKILL');
    });
    const { base } = service;
    const admin = bearer(ADMIN_TOKEN);
    const ws = await http(base, 'POST', '/admin/v1/workspaces', {
      body: { name: 's', credits: 5 },
      headers: admin,
    });
    const key = (
      await http(base, 'POST', `/admin/v1/workspaces/${ws.json.id}/api-keys`, {
        body: { scopes: ['template:read', 'template:write', 'render:write'] },
        headers: admin,
      })
    ).json.key as string;
    const document = simpleDocument();
    document.pages[0]?.elements.push({
      id: 'slow',
      type: 'image',
      x: 0,
      y: 0,
      width: 40,
      height: 40,
      src: `${origin.base}/slow.png`,
    } as never);
    const template = await http(base, 'POST', '/v1/templates', {
      body: { name: 'slow', document },
      headers: bearer(key),
    });
    expect(template.status).toBe(201);
    const sub = await embedSubscriber(base, receiver, '/hook');

    // Work in flight: a render waiting for its image, a webhook attempt waiting for its receiver.
    const render = http(base, 'POST', `/v1/templates/${template.json.id}/render`, {
      body: { format: 'png' },
      headers: bearer(key),
    });
    await embedTemplate(base, sub, 'hooked');
    await eventually(() => imageRequested && receiver.requests.length === 1, 10_000);
    const stopped = service.stop('SIGTERM');

    // No new work is taken: new connections are refused (or answered 503 while closing).
    await new Promise((r) => setTimeout(r, 300));
    const late = await fetch(`${base}/healthz`).then(
      (res) => res.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(late);

    const rendered = await render;
    expect(rendered.status, JSON.stringify(rendered.json)).toBe(200);
    expect(rendered.json.credits).toEqual({ charged: 1, balanceAfter: 4 });
    await stopped;
    const output = service.output();
    expect(output).toContain('shutting down');
    expect(output, output.slice(-3000)).toContain('"msg":"stopped"');
    expect(receiver.delivered('/hook').size).toBe(1);

    // Restarted on the same data: the render is recorded, charged once, and the message not resent.
    service = await startService(env);
    const stored = await http(service.base, 'GET', `/v1/renders/${rendered.json.id}`, {
      headers: bearer(key),
    });
    expect(stored.status).toBe(200);
    const ledger = await http(service.base, 'GET', `/admin/v1/workspaces/${ws.json.id}/ledger`, {
      headers: admin,
    });
    expect(ledger.json.items.map((e: { delta: number }) => e.delta)).toEqual([5, -1]);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(receiver.requests).toHaveLength(1);
  }, 90_000);
});
