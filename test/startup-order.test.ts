/**
 * One start-up for production and the tests: `npm start` (src/main.ts) and the test harness
 * (test/harness/server.ts) both start Platen through startPlaten (src/start.ts), so a test server
 * runs what production runs, in the same order: listen, then maintenance, the webhook dispatcher
 * and the render queue, then the periodic upkeep (OAuth and sign-in sweeps, thumbnail catch-up,
 * batch sweep); and stops the same way.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchService } from '../src/batches/index.ts';
import { loadConfig } from '../src/core/config.ts';
import { createLogger } from '../src/core/logger.ts';
import { OAuthService } from '../src/oauth/index.ts';
import { PeopleService } from '../src/people/index.ts';
import { RenderMaintenance, RenderQueueWorker } from '../src/renders/index.ts';
import { startPlaten } from '../src/start.ts';
import { ThumbnailService } from '../src/thumbnails/index.ts';
import { WebhookDispatcher } from '../src/webhooks/index.ts';
import { pgUrl } from './harness/backends.ts';
import { ADMIN_TOKEN, freePort, http, startTestServer, type TestServer } from './harness/server.ts';
import { eventually } from './harness/webhooks.ts';

const root = new URL('..', import.meta.url).pathname;
const source = (path: string) => readFileSync(join(root, path), 'utf8');

/** Records, in order, what the start-up (and the stop) called on the services. */
function recordCalls(): string[] {
  const calls: string[] = [];
  const record = <T extends object>(proto: T, method: keyof T & string, label: string) => {
    const original = proto[method] as (...args: unknown[]) => unknown;
    vi.spyOn(proto, method as never).mockImplementation(function (this: unknown, ...args: unknown[]) {
      calls.push(label);
      return original.apply(this, args);
    } as never);
  };
  record(RenderMaintenance.prototype, 'start', 'maintenance.start');
  record(WebhookDispatcher.prototype, 'start', 'dispatcher.start');
  record(RenderQueueWorker.prototype, 'start', 'queue.start');
  record(OAuthService.prototype, 'sweep', 'upkeep: OAuth sweep');
  record(PeopleService.prototype, 'sweep', 'upkeep: sign-in sessions sweep');
  record(ThumbnailService.prototype, 'catchUp', 'upkeep: thumbnails catch-up');
  record(BatchService.prototype, 'sweep', 'upkeep: batch sweep');
  record(WebhookDispatcher.prototype, 'stop', 'dispatcher.stop');
  record(RenderQueueWorker.prototype, 'stop', 'queue.stop');
  return calls;
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

describe('one start-up for main and the test harness', () => {
  it('main and the harness both start through startPlaten, and neither wires the parts itself', () => {
    for (const path of ['src/main.ts', 'test/harness/server.ts']) {
      const text = source(path);
      expect(text, path).toMatch(/import \{[^}]*\bstartPlaten\b[^}]*\} from '[./]+\/?(src\/)?start\.ts'/);
      expect(text, path).toMatch(/\bstartPlaten\(/);
    }
    // The start-up steps are written once, in src/start.ts: no entry point or harness file repeats them.
    const steps =
      /\b(createServices|buildApp|startPeriodic|bootstrapIfEmpty|startTracing)\(|\.listen\(\{|\.(maintenance|webhookDispatcher|renderQueue)\.start\(/;
    const harness = readdirSync(join(root, 'test/harness'), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `test/harness/${name}`);
    for (const path of ['src/main.ts', ...harness]) expect(source(path), path).not.toMatch(steps);
  });

  it('a harness server runs the production start-up: background work after listening, then the periodic upkeep', async () => {
    const calls = recordCalls();
    server = await startTestServer();
    expect((await http(server.base, 'GET', '/healthz')).status).toBe(200);
    const upkeep = [
      'upkeep: OAuth sweep',
      'upkeep: sign-in sessions sweep',
      'upkeep: thumbnails catch-up',
      'upkeep: batch sweep',
    ];
    await eventually(
      () => upkeep.every((step) => calls.includes(step)),
      5_000,
      () => JSON.stringify(calls),
    );
    // Background work starts in production's order, and each step once.
    expect(calls.slice(0, 3)).toEqual(['maintenance.start', 'dispatcher.start', 'queue.start']);
    for (const step of upkeep)
      expect(
        calls.filter((call) => call === step),
        step,
      ).toHaveLength(1);

    // The production stop: the dispatcher and the queue are stopped with the grace before the close.
    const stopped = calls.length;
    await server.close();
    server = undefined;
    expect(calls.slice(stopped, stopped + 2).sort()).toEqual(['dispatcher.stop', 'queue.stop']);
  });

  it('a start that fails after opening the services closes them (the data dir is free again)', async () => {
    server = await startTestServer();
    const dataDir = mkdtempSync(join(tmpdir(), 'platen-start-'));
    try {
      const config = (port: number) =>
        loadConfig({
          PLATEN_DATA_DIR: dataDir,
          PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
          PLATEN_BOOTSTRAP: 'false',
          PLATEN_HOST: '127.0.0.1',
          PORT: String(port),
        });
      const logger = createLogger('silent');
      const taken = Number(new URL(server.base).port);
      await expect(startPlaten(config(taken), logger)).rejects.toThrow(/EADDRINUSE|address already in use/i);
      const again = await startPlaten(config(await freePort()), logger);
      expect((await http(again.url, 'GET', '/healthz')).status).toBe(200);
      await again.stop(1_000);
      await again.stop(1_000); // once, however often called
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!pgUrl)(
    'the harness runs the worker role as production does: health and metrics, renders only',
    async () => {
      const calls = recordCalls();
      // PLATEN_ROLE=worker needs PostgreSQL (the embedded database belongs to one process).
      server = await startTestServer('postgres', { PLATEN_ROLE: 'worker' });
      expect((await http(server.base, 'GET', '/healthz')).status).toBe(200);
      expect((await http(server.base, 'GET', '/v1/templates')).status).toBe(404);
      await eventually(
        () => calls.includes('upkeep: batch sweep'),
        5_000,
        () => JSON.stringify(calls),
      );
      expect(calls).toContain('queue.start');
      expect(calls).not.toContain('maintenance.start');
      expect(calls).not.toContain('dispatcher.start');
      expect(calls).not.toContain('upkeep: OAuth sweep');
      expect(calls).not.toContain('upkeep: thumbnails catch-up');
    },
  );
});
