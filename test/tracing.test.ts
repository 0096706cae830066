/**
 * OpenTelemetry traces from a real service process, exported over OTLP/HTTP to a collector on
 * loopback: a request continues the caller's W3C trace, its route names the server span, and the
 * render, its time in a render process and a webhook attempt are child spans with their attributes.
 * Without the OpenTelemetry variables nothing is set up.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { tracingRequested } from '../src/observability/index.ts';
import { startReceiver } from '../src/webhooks/testing/receiver.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { bearer, http, workspaceWithKey } from './harness/server.ts';
import { embedSubscriber, embedTemplate, eventually, fleet } from './harness/webhooks.ts';

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number };
  service: unknown;
}

type Attribute = { key: string; value: Record<string, unknown> };
const attributesOf = (list: Attribute[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));

/** An OTLP/HTTP JSON collector: every span it receives, flattened. */
async function startCollector() {
  const spans: ExportedSpan[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const payload = JSON.parse(body);
        for (const resourceSpans of payload.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({ ...span, attributes: attributesOf(span.attributes), service: resource });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('OpenTelemetry traces', () => {
  const services = fleet();
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    await services.cleanup();
    for (const cleanup of cleanups) await cleanup();
  });

  it('is off unless an OTLP endpoint is configured', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(true);
    expect(
      tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(false);
  });

  it('exports request, render and webhook spans that continue the caller’s trace', async () => {
    const collector = await startCollector();
    cleanups.push(collector.close);
    const receiver = await startReceiver(() => ({ status: 200 }));
    cleanups.push(() => receiver.close());
    const service = await services.start({
      PLATEN_DATA_DIR: services.tempDir('tracing'),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.base,
      OTEL_SERVICE_NAME: 'platen-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      PLATEN_RENDER_RATE_LIMIT: '0',
    });
    const { key } = await workspaceWithKey(service.base);
    const template = await http(service.base, 'POST', '/v1/templates', {
      body: { name: 't', document: simpleDocument() },
      headers: bearer(key),
    });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const traced = { ...bearer(key), traceparent: `00-${traceId}-${parentId}-01` };
    const path = `/v1/templates/${template.json.id}/render`;
    const first = await http(service.base, 'POST', path, { body: { format: 'png' }, headers: traced });
    expect(first.status).toBe(200);
    expect((await fetch(first.json.url)).status).toBe(200);
    const replay = await http(service.base, 'POST', path, { body: { format: 'png' }, headers: bearer(key) });
    expect(replay.json.credits.charged).toBe(0);
    const sub = await embedSubscriber(service.base, receiver, '/traced');
    await embedTemplate(service.base, sub, 'hooked');

    const named = (name: string) => collector.spans.filter((span) => span.name === name);
    await eventually(
      () => named('render').length === 2 && named('webhook.deliver').length === 1,
      15_000,
      () => JSON.stringify(collector.spans.map((s) => s.name)),
    );
    const server = collector.spans.find(
      (s) => s.traceId === traceId && s.name === 'POST /v1/templates/:id/render',
    );
    expect(server).toBeDefined();
    expect(server?.parentSpanId).toBe(parentId);
    expect(server?.kind).toBe(2); // SERVER
    expect(server?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/templates/:id/render',
      'http.response.status_code': 200,
    });
    expect(server?.service).toMatchObject({ 'service.name': 'platen-test' });

    const [fresh, replayed] = [...named('render')].sort((a, b) =>
      a.traceId === traceId ? -1 : b.traceId === traceId ? 1 : 0,
    );
    expect(fresh?.traceId).toBe(traceId);
    expect(fresh?.parentSpanId).toBe(server?.spanId);
    expect(fresh?.attributes).toMatchObject({ 'platen.render.format': 'png', 'platen.render.cache': 'miss' });
    expect(replayed?.attributes).toMatchObject({ 'platen.render.cache': 'hit' });
    const inProcess = named('render.process').find((span) => span.traceId === traceId);
    expect(inProcess?.parentSpanId).toBe(fresh?.spanId);

    const [delivery] = named('webhook.deliver');
    expect(delivery?.kind).toBe(3); // CLIENT
    expect(delivery?.attributes).toMatchObject({
      'http.response.status_code': 200,
      'platen.webhook.attempt': 1,
    });
    // Capability file paths never reach the trace.
    expect(
      collector.spans.some((span) => String(span.attributes['url.path']).includes('/files/renders')),
    ).toBe(false);
  }, 60_000);
});
