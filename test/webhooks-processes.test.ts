/**
 * Webhook delivery across real service processes (`npm start`), to a real loopback receiver that
 * verifies every signature with the `standardwebhooks` library: no event lost when the service is
 * killed (-9) with deliveries in flight and others waiting (SQLite, and PostgreSQL when
 * PLATEN_TEST_DATABASE_URL is set); two instances on one PostgreSQL never carry one message at the
 * same time and deliver each once; a target that has become private is refused at delivery.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  overlapping,
  type ReceivedRequest,
  type Receiver,
  startReceiver,
} from '../src/webhooks/testing/receiver.ts';
import { backends, pgUrl } from './harness/backends.ts';
import { bearer, http } from './harness/server.ts';
import {
  type Delivery,
  deliveryLog,
  embedSubscriber,
  embedTemplate,
  eventually,
  fleet,
} from './harness/webhooks.ts';

const services = fleet();
let receiver: Receiver;

beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await services.cleanup();
  await receiver.close();
});

interface Event {
  type: string;
  templateId: string;
  revision: number;
}

const eventOf = (r: ReceivedRequest): Event => {
  const body = JSON.parse(r.body);
  return { type: body.type, templateId: body.data.template.id, revision: body.data.template.revision };
};

/** Requests to `path` answered 2xx, each with the event it carried. */
const deliveredTo = (path: string) =>
  receiver.requests.filter((r) => r.path === path && r.status !== null && r.status < 300);

const pending = (expected: string[], path: string) => () => {
  const got = new Set(deliveredTo(path).map((r) => `${eventOf(r).type}:${eventOf(r).templateId}`));
  return `; missing ${expected.filter((e) => !got.has(e)).join(', ')}`;
};

describe.each(backends)('a kill -9 with deliveries in flight ($name)', ({ name, skip }) => {
  it.skipIf(skip)(
    `loses no event: each arrives, signed, after the restart${skip ? ` (skipped: ${skip})` : ''}`,
    async () => {
      const env: Record<string, string> = {
        PLATEN_DATA_DIR: services.tempDir('wh-kill'),
        // Long enough that the held requests are still open at the kill; on PostgreSQL the dead
        // instance's leases expire a little after it.
        PLATEN_WEBHOOK_TIMEOUT_MS: '10000',
        PLATEN_WEBHOOK_LEASE_MS: '12000',
      };
      if (name === 'postgres' && pgUrl) env.DATABASE_URL = await services.pgDatabase(pgUrl);
      // Before the kill every request is held open and never answered; after it, all are accepted.
      let killed = false;
      receiver.behave = () => (killed ? { status: 200 } : 'hang');

      const first = await services.start(env);
      const sub = await embedSubscriber(first.base, receiver, '/kill');
      const expected: string[] = [];
      for (let i = 0; i < 6; i++) {
        const id = await embedTemplate(first.base, sub, `t${i}`);
        expected.push(`template.create:${id}`);
      }
      const [, firstId] = (expected[0] ?? '').split(':');
      const template = await http(first.base, 'GET', `/v1/embed/${sub.embedId}/templates/${firstId}`, {
        headers: bearer(sub.token),
      });
      const saved = await http(first.base, 'PUT', `/v1/embed/${sub.embedId}/templates/${firstId}`, {
        body: { document: template.json.document },
        headers: bearer(sub.token),
      });
      expect(saved.status).toBe(200);
      expected.push(`template.update:${firstId}`);

      await eventually(
        () => receiver.requests.some((r) => r.endedAt === null),
        30_000,
        () => `; no delivery in flight: ${first.output().slice(-2000)}`,
      );
      await first.stop('SIGKILL');
      killed = true;
      const cut = receiver.requests.map((r) => r.messageId);
      // The kill lands with deliveries held open and others not even tried yet, or it proves little.
      expect(cut.length).toBeGreaterThan(0);
      expect(cut.length).toBeLessThan(expected.length);
      await eventually(() => receiver.requests.every((r) => r.endedAt !== null), 10_000);
      expect(receiver.requests.every((r) => r.status === null)).toBe(true);

      // The new process takes the same data: the SQLite data dir lock died with the old one.
      const second = await services.start(env);
      await eventually(
        () => new Set(deliveredTo('/kill').map((r) => r.messageId)).size >= expected.length,
        90_000,
        pending(expected, '/kill'),
      );

      const all = receiver.requests.filter((r) => r.path === '/kill');
      expect(all.filter((r) => !r.verified)).toEqual([]);
      const delivered = deliveredTo('/kill');
      expect(delivered.map((r) => `${eventOf(r).type}:${eventOf(r).templateId}`).sort()).toEqual(
        [...expected].sort(),
      );
      // Each event once after the restart; those cut by the kill sent again, same id, same bytes.
      expect(new Set(delivered.map((r) => r.messageId)).size).toBe(delivered.length);
      for (const id of cut) {
        const tries = all.filter((r) => r.messageId === id);
        expect(tries.map((r) => r.status)).toEqual([null, 200]);
        expect(tries[1]?.body).toBe(tries[0]?.body);
      }

      // The log has one successful attempt per event (written just after the answer); an attempt
      // cut by the kill could not be logged, but it counts: the attempt after it is number 2.
      let log: Delivery[] = [];
      await eventually(
        async () => {
          log = await deliveryLog(second.base, sub.webhookId);
          return log.filter((d) => d.ok).length >= expected.length;
        },
        30_000,
        () => JSON.stringify(log),
      );
      const okLog = log.filter((d) => d.ok);
      expect(okLog.map((d) => d.messageId).sort()).toEqual(delivered.map((r) => r.messageId).sort());
      expect(log.filter((d) => !d.ok)).toEqual([]);
      for (const d of okLog) {
        expect([d.messageId, d.statusCode, d.attempt]).toEqual([
          d.messageId,
          200,
          cut.includes(d.messageId) ? 2 : 1,
        ]);
      }
    },
    180_000,
  );
});

const twoInstances = pgUrl ? '' : ' (skipped: PLATEN_TEST_DATABASE_URL not set)';

describe.skipIf(!pgUrl)(`two service processes on one PostgreSQL${twoInstances}`, () => {
  it('never carry one message at the same time, and deliver each event once', async () => {
    const env: Record<string, string> = {
      DATABASE_URL: await services.pgDatabase(pgUrl ?? ''),
      // The debug log says which instance delivered what.
      PLATEN_LOG_LEVEL: 'debug',
    };
    receiver.behave = () => ({ status: 200, delayMs: 300 });
    const a = await services.start({ ...env, PLATEN_DATA_DIR: services.tempDir('wh-a') });
    const b = await services.start({ ...env, PLATEN_DATA_DIR: services.tempDir('wh-b') });
    const sub = await embedSubscriber(a.base, receiver, '/busy');
    // Both instances write events (each wakes its own dispatcher; the other finds them by polling).
    const expected: string[] = [];
    for (let i = 0; i < 40; i++) {
      const id = await embedTemplate(i % 2 ? b.base : a.base, sub, `t${i}`);
      expected.push(`template.create:${id}`);
    }
    await eventually(
      () => new Set(deliveredTo('/busy').map((r) => r.messageId)).size >= expected.length,
      120_000,
      pending(expected, '/busy'),
    );
    let log: Delivery[] = [];
    await eventually(async () => {
      log = await deliveryLog(a.base, sub.webhookId);
      return log.length >= expected.length;
    }, 30_000);

    const all = receiver.requests.filter((r) => r.path === '/busy');
    expect(all.filter((r) => !r.verified)).toEqual([]);
    expect(overlapping(all)).toEqual([]);
    expect(all.map((r) => `${eventOf(r).type}:${eventOf(r).templateId}`).sort()).toEqual(
      [...expected].sort(),
    );
    expect(new Set(all.map((r) => r.messageId)).size).toBe(expected.length);
    expect(log.map((d) => [d.ok, d.attempt])).toEqual(Array(expected.length).fill([true, 1]));

    const deliveredBy = (output: string) =>
      output.split('\n').filter((l) => l.includes('"webhook delivered"'));
    // Each line is logged just after its attempt is recorded, and reaches this process through a
    // pipe: the last ones may still be on their way when the records are all there.
    await eventually(
      () => deliveredBy(a.output()).length + deliveredBy(b.output()).length >= expected.length,
      30_000,
    );
    const byA = deliveredBy(a.output()).length;
    const byB = deliveredBy(b.output()).length;
    expect(byA + byB).toBe(expected.length);
    expect(byA).toBeGreaterThan(0);
    expect(byB).toBeGreaterThan(0);
  }, 180_000);
});

describe('a target that has become private', () => {
  it('is refused at delivery, before any connection (SQLite)', async () => {
    const dataDir = services.tempDir('wh-ssrf');
    const open = await services.start({ PLATEN_DATA_DIR: dataDir });
    // `localhost` is accepted while private targets are allowed...
    const url = (path: string) => receiver.url(path).replace('http://127.0.0.1', 'https://localhost');
    const sub = await embedSubscriber(open.base, receiver, '/private', url('/private'));
    await open.stop();

    // ...and refused on every attempt once they are not.
    const strict = await services.start({ PLATEN_DATA_DIR: dataDir, PLATEN_ALLOW_PRIVATE_URLS: 'false' });
    await embedTemplate(strict.base, sub, 'guarded');
    let log: Delivery[] = [];
    await eventually(
      async () => {
        log = await deliveryLog(strict.base, sub.webhookId);
        return log.length > 0;
      },
      30_000,
      () => strict.output().slice(-2000),
    );
    expect(log[0]).toMatchObject({ ok: false, statusCode: null, attempt: 1 });
    expect(log[0]?.error).toMatch(/^private-address/);
    expect(receiver.connections).toBe(0);
  }, 120_000);
});
