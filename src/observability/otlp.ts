/**
 * The OpenTelemetry SDK behind tracing.ts, imported by `startTracing` only when traces are asked for:
 * the tracer provider exporting OTLP over HTTP by batches, the W3C propagator, the AsyncLocalStorage
 * context manager, and a server span for every request.
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
import type { RequestTracer } from '../http/kernel.ts';
import { pathForTrace, type Tracing } from './tracing.ts';

export function startOtlpTracing(options: { serviceName: string; instanceId: string }): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
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
