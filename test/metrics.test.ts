/**
 * `GET /metrics`: the operator token only, Prometheus text, and figures that follow what happened:
 * requests by route pattern (never the raw URL), renders by format and cache hit or miss, credits,
 * render processes, webhook attempts and the outbox backlog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../src/webhooks/testing/receiver.ts';
import { simpleDocument } from './fixtures/samples.ts';
import {
  ADMIN_TOKEN,
  bearer,
  http,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';
import { embedSubscriber, embedTemplate, eventually } from './harness/webhooks.ts';

/** The value of one sample line, e.g. `platen_credits_charged_total` or `name{label="x"}`. */
function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    if (line.slice(0, cut) === series) return Number(line.slice(cut + 1));
  }
  return undefined;
}

describe('Prometheus metrics', () => {
  let server: TestServer;
  let receiver: Receiver;
  const scrape = async () => {
    const res = await http(server.base, 'GET', '/metrics', { headers: bearer(ADMIN_TOKEN) });
    expect(res.status).toBe(200);
    return res.bytes.toString('utf8');
  };

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('answers the operator token only', async () => {
    const { key } = await workspaceWithKey(server.base);
    expect((await http(server.base, 'GET', '/metrics')).json.error.code).toBe('UNAUTHORIZED');
    expect((await http(server.base, 'GET', '/metrics', { headers: bearer(key) })).status).toBe(401);
    const res = await http(server.base, 'GET', '/metrics', { headers: bearer(ADMIN_TOKEN) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts renders by format and cache, and the credits they charged', async () => {
    const { key } = await workspaceWithKey(server.base);
    const t = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 'm', document: simpleDocument() },
      headers: bearer(key),
    });
    const path = `/v1/templates/${t.json.id}/render`;
    const before = await scrape();
    const count = (text: string, format: string, cache: string) =>
      sample(text, `platen_render_duration_seconds_count{format="${format}",cache="${cache}"}`) ?? 0;
    const charged = (text: string) => sample(text, 'platen_credits_charged_total') ?? 0;
    for (const body of [{ format: 'png' }, { format: 'png' }, { format: 'jpeg', idempotencyKey: 'a' }]) {
      expect((await http(server.base, 'POST', path, { body, headers: bearer(key) })).status).toBe(200);
    }
    const after = await scrape();
    expect(count(after, 'png', 'miss') - count(before, 'png', 'miss')).toBe(1);
    expect(count(after, 'png', 'hit') - count(before, 'png', 'hit')).toBe(1);
    expect(count(after, 'jpeg', 'miss') - count(before, 'jpeg', 'miss')).toBe(1);
    expect(charged(after) - charged(before)).toBe(2);
    // Requests are labelled by route pattern, so ids never become label values.
    const renders = `platen_http_request_duration_seconds_count{method="POST",route="/v1/templates/:id/render",status="200"}`;
    expect(sample(after, renders)).toBeGreaterThanOrEqual(3);
    expect(after).not.toContain(t.json.id);
  });

  it('labels every unknown URL alike, so scanning random paths cannot grow the series', async () => {
    for (const path of ['/nope-1', '/nope-2/x', '/v1/nothing-here'])
      expect((await http(server.base, 'GET', path)).status).toBe(404);
    const text = await scrape();
    expect(
      sample(text, 'platen_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}'),
    ).toBe(3);
    expect(text).not.toContain('nope-1');
  });

  it('shows the render processes and the queue', async () => {
    const text = await scrape();
    expect(sample(text, 'platen_render_workers')).toBe(server.services.pool.stats().workers);
    expect(sample(text, 'platen_render_queue_depth')).toBe(0);
    expect(sample(text, 'platen_render_worker_restarts_total')).toBe(0);
    expect(sample(text, 'platen_render_worker_utilisation')).toBeGreaterThanOrEqual(0);
  });

  it('counts webhook attempts by outcome and shows the outbox backlog', async () => {
    const sub = await embedSubscriber(server.base, receiver, '/hook');
    const delivered = () =>
      scrape().then((text) => sample(text, 'platen_webhook_attempts_total{outcome="delivered"}') ?? 0);
    const before = await delivered();
    await embedTemplate(server.base, sub, 'one');
    await eventually(async () => (await delivered()) === before + 1, 10_000);
    const text = await scrape();
    expect(sample(text, 'platen_webhook_outbox_pending')).toBe(0);
    expect(sample(text, 'platen_webhook_outbox_oldest_age_seconds')).toBe(0);
    // A waiting message (delivery stopped) shows in the backlog with its age.
    await server.services.webhookDispatcher.stop();
    await embedTemplate(server.base, sub, 'two');
    await new Promise((r) => setTimeout(r, 1100));
    const waiting = await scrape();
    expect(sample(waiting, 'platen_webhook_outbox_pending')).toBe(1);
    expect(sample(waiting, 'platen_webhook_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(1);
  });
});
