/**
 * Optional OpenTelemetry traces: on when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, exported as OTLP over HTTP by batches. The exporter
 * reads the standard variables itself (endpoint, headers, timeout), as every OpenTelemetry SDK does.
 * Every request gets a server span, continuing the caller's W3C `traceparent` when there is one;
 * features add their own spans through core/tracing.ts (render, render.process, webhook.deliver),
 * which become its children because the request runs inside the span's context (AsyncLocalStorage).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_INSTANCE_ID,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import { redactUrl } from '../core/logger.ts';
import type { RequestTracer } from '../http/kernel.ts';

export interface Tracing {
  requests: RequestTracer;
  /** Exports what is buffered and stops (graceful shutdown). */
  shutdown(): Promise<void>;
}

/** Whether the environment asks for traces (the OpenTelemetry variables, as any SDK reads them). */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export function startTracing(options: { instanceId: string; env?: NodeJS.ProcessEnv }): Tracing | null {
  const env = options.env ?? process.env;
  if (!tracingRequested(env)) return null;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME || 'platen',
      [ATTR_SERVICE_INSTANCE_ID]: options.instanceId,
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return { requests: requestTracer(), shutdown: () => provider.shutdown() };
}

const headerGetter = {
  keys: (carrier: IncomingMessage['headers']) => Object.keys(carrier),
  get: (carrier: IncomingMessage['headers'], key: string) => carrier[key],
};

function requestTracer(): RequestTracer {
  const tracer = trace.getTracer('platen');
  const spans = new WeakMap<IncomingMessage, Span>();
  return {
    run(request: IncomingMessage, response: ServerResponse, handle: () => void): void {
      const parent = propagation.extract(context.active(), request.headers, headerGetter);
      const method = request.method ?? 'GET';
      const span = tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            [ATTR_HTTP_REQUEST_METHOD]: method,
            // The path without its query; capability file paths are secrets, so only their kind.
            [ATTR_URL_PATH]: pathForTrace(request.url ?? '/'),
          },
        },
        parent,
      );
      spans.set(request, span);
      response.once('close', () => span.end());
      context.with(trace.setSpan(parent, span), handle);
    },
    routed(request: IncomingMessage, route: string, statusCode: number): void {
      const span = spans.get(request);
      if (!span) return;
      span.updateName(route === 'unmatched' ? (request.method ?? 'GET') : `${request.method} ${route}`);
      span.setAttributes({ [ATTR_HTTP_ROUTE]: route, [ATTR_HTTP_RESPONSE_STATUS_CODE]: statusCode });
      if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    },
  };
}

/** The path without its query, with capability paths and tokens redacted as in the logs. */
export function pathForTrace(url: string): string {
  return redactUrl(url.split('?')[0] ?? '/');
}
